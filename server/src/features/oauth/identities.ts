/** SQL for outside identities: who a (provider, subject) pair signs in as. */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { identities, organizations, users } from '../../db/schema';

/** The user linked to this identity (deleted or not: the caller decides), with their organization's name. */
export async function findLinkedUser(db: Executor, provider: string, subject: string) {
  const [row] = await db
    .select({ identityId: identities.id, user: users, organizationName: organizations.name })
    .from(identities)
    .innerJoin(users, eq(users.id, identities.userId))
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(identities.provider, provider), eq(identities.subject, subject)))
    .limit(1);
  return row ?? null;
}

export async function insertIdentity(
  db: Executor,
  values: { provider: string; subject: string; userId: number; email: string },
): Promise<void> {
  await db.insert(identities).values(values);
}

export async function touchIdentity(db: Executor, id: number): Promise<void> {
  await db.update(identities).set({ lastUsedAt: sql`now()` }).where(eq(identities.id, id));
}
