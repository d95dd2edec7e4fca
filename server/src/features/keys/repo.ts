/** SQL of /v2/keys. Revoked keys are kept (usage refers to them) but never listed or accepted. */
import type { ApiKey } from '@tessera/common/entities';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { apiKeys } from '../../db/schema';

export type KeyRow = typeof apiKeys.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toApiKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    userId: row.userId,
    organizationId: row.organizationId,
    lastFour: row.secretLastFour,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: iso(row.expiresAt),
    ipAllowlist: row.ipAllowlist,
    rateLimit: row.rateLimit,
    allowedRecordTypes: row.allowedRecordTypes,
    legacy: row.legacy,
    previousValidUntil:
      row.previousValidUntil && row.previousValidUntil > new Date() ? iso(row.previousValidUntil) : null,
  };
}

const live = isNull(apiKeys.deletedAt);

/** Live keys of one user, of one organization, or (neither given) of everyone. */
export async function listKeys(db: Executor, scope: { userId?: number; organizationId?: number }): Promise<KeyRow[]> {
  const where = [live];
  if (scope.userId !== undefined) where.push(eq(apiKeys.userId, scope.userId));
  if (scope.organizationId !== undefined) where.push(eq(apiKeys.organizationId, scope.organizationId));
  return db
    .select()
    .from(apiKeys)
    .where(and(...where))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

/** A live key, locked for update when `forUpdate` (inside a transaction). */
export async function findKey(db: Executor, id: string, forUpdate = false): Promise<KeyRow | null> {
  const query = db
    .select()
    .from(apiKeys)
    .where(and(live, eq(apiKeys.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function insertKey(db: Executor, values: typeof apiKeys.$inferInsert): Promise<KeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row!;
}

export async function updateKey(
  db: Executor,
  id: string,
  values: Partial<typeof apiKeys.$inferInsert>,
): Promise<KeyRow> {
  const [row] = await db
    .update(apiKeys)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(apiKeys.id, id))
    .returning();
  return row!;
}
