/** The suppression list as staff manage it: search, add, lift. */
import type { Suppression, SuppressionKey, SuppressionKind, SuppressionSource } from '@tessera/common/stewardship';
import { STEWARDSHIP_LIMITS } from '@tessera/common/stewardship';
import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { suppressions } from '../../db/schema';

type Row = typeof suppressions.$inferSelect;

/** A phone number is shown by its last four digits; hashes and identity ids as they are. */
function shown(kind: string, value: string): string {
  return kind === 'phone' ? `•••${value.slice(-4)}` : value;
}

export function view(row: Row): Suppression {
  return {
    id: row.id,
    kind: row.kind as SuppressionKind,
    value: shown(row.kind, row.value),
    source: row.source as SuppressionSource,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    requestId: row.requestId,
  };
}

export async function searchSuppressions(
  db: Executor,
  keys: SuppressionKey[] | null,
  before: number | null,
): Promise<Suppression[]> {
  const conditions: (SQL | undefined)[] = [];
  if (keys)
    conditions.push(or(...keys.map((k) => and(eq(suppressions.kind, k.kind), eq(suppressions.value, k.value)))));
  if (before !== null) conditions.push(lt(suppressions.id, before));
  const rows = await db
    .select()
    .from(suppressions)
    .where(and(...conditions))
    .orderBy(desc(suppressions.id))
    .limit(STEWARDSHIP_LIMITS.page);
  return rows.map(view);
}

export async function addSuppression(
  db: Executor,
  key: SuppressionKey,
  origin: { source: SuppressionSource; createdBy: number | null; requestId?: number | null },
): Promise<Suppression | null> {
  const [row] = await db
    .insert(suppressions)
    .values({ ...key, source: origin.source, createdBy: origin.createdBy, requestId: origin.requestId ?? null })
    .onConflictDoNothing()
    .returning();
  return row ? view(row) : null;
}

export async function liftSuppression(db: Executor, id: number): Promise<Row | null> {
  const [row] = await db.delete(suppressions).where(eq(suppressions.id, id)).returning();
  return row ?? null;
}
