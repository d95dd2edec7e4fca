/** SQL of /v2/keys. Revoked keys are kept (usage refers to them) but never listed or accepted. */
import type { ApiKey } from '@tessera/common/entities';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { apiKeys, usageTotals } from '../../db/schema';

export type KeyRow = typeof apiKeys.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface KeyUsage {
  lastUsedAt: string | null;
  callsThisMonth: number;
}

const UNUSED: KeyUsage = { lastUsedAt: null, callsThisMonth: 0 };

/**
 * Each key's last use (the time of its latest call) and calls this month (UTC), from the hourly and daily usage
 * rollups through their key index, never a scan of usage: the aggregator keeps each bucket's latest call in `last_at`
 * (decision 0056); hours rolled up before it have only their start. Keys without calls are absent.
 */
export async function keyUsage(db: Executor, ids: readonly string[]): Promise<Map<string, KeyUsage>> {
  const out = new Map<string, KeyUsage>();
  if (ids.length === 0) return out;
  const r = usageTotals;
  const rows = await db
    .select({
      keyId: r.keyId,
      lastUsedAt: sql<Date | string | null>`max(coalesce(${r.lastAt}, ${r.at})) filter (where ${r.bucket} = 'hour')`,
      calls: sql<string | number>`coalesce(sum(${r.requests}) filter (where ${r.bucket} = 'day'
        and ${r.at} >= date_trunc('month', now(), 'UTC')), 0)`,
    })
    .from(r)
    .where(inArray(r.keyId, [...ids]))
    .groupBy(r.keyId);
  for (const row of rows) {
    out.set(row.keyId, {
      lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
      callsThisMonth: Number(row.calls),
    });
  }
  return out;
}

/** Keys as the console sees them, with their usage. */
export async function toApiKeys(db: Executor, rows: readonly KeyRow[]): Promise<KeyOut[]> {
  const usage = await keyUsage(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toApiKey(row, usage.get(row.id)));
}

/** A key as the API gives it: with its default permissible purpose (issue 34). */
export type KeyOut = ApiKey & KeyUsage & { defaultPurpose: string | null };

export function toApiKey(row: KeyRow, usage: KeyUsage = UNUSED): KeyOut {
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
    mode: row.mode,
    defaultPurpose: row.defaultPurpose,
    previousValidUntil:
      row.previousValidUntil && row.previousValidUntil > new Date() ? iso(row.previousValidUntil) : null,
    lastUsedAt: usage.lastUsedAt,
    callsThisMonth: usage.callsThisMonth,
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

/**
 * Changes a key. Its updatedAt is its version (If-Match, common/etag.ts): every change moves it by at least a
 * millisecond, even two within one.
 */
export async function updateKey(
  db: Executor,
  id: string,
  values: Partial<typeof apiKeys.$inferInsert>,
): Promise<KeyRow> {
  const [row] = await db
    .update(apiKeys)
    .set({ ...values, updatedAt: sql`greatest(now(), ${apiKeys.updatedAt} + interval '1 millisecond')` })
    .where(eq(apiKeys.id, id))
    .returning();
  return row!;
}
