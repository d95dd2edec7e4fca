import { canonicalEmail, emailKey } from '@tessera/common/validation';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { organizations, users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** Stores the address in its canonical form (decision 0020), whoever made the user. */
export async function insertUser(db: Executor, values: NewUser): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: canonicalEmail(values.email) })
    .returning();
  return row!;
}

/**
 * The live user whose address is `email`'s key (decision 0020). The key is compared with the stored address as the
 * unique index folds it, and never folded by the database itself: a matched user's key is always their own, so
 * every form of an address that reaches an account counts against that account's one sign-in throttle.
 */
export async function findUserByEmail(db: Executor, email: string) {
  const [row] = await db
    .select({ user: users, organizationName: organizations.name })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(sql`lower(${users.email}) = ${emailKey(email)}`, isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Executor, id: number) {
  const [row] = await db
    .select({ user: users, organizationName: organizations.name })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? 0;
}

/** Live users, optionally of one organization, with their organization's name; at most `limit`. */
export async function listUsers(db: Executor, organizationId: number | undefined, limit = 10_000) {
  return db
    .select({ user: users, organizationName: organizations.name })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(
      and(isNull(users.deletedAt), organizationId === undefined ? undefined : eq(users.organizationId, organizationId)),
    )
    .orderBy(asc(users.name), asc(users.email))
    .limit(limit);
}

/** Locks a user's row until the transaction ends, so checks made on it hold until the write. */
export async function lockUser(db: Executor, id: number): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
}
