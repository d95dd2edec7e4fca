/** The suppression list as staff manage it: search, add, lift. */
import type { Suppression, SuppressionKey, SuppressionKind, SuppressionSource } from '@tessera/common/stewardship';
import { STEWARDSHIP_LIMITS } from '@tessera/common/stewardship';
import { and, desc, eq, lt, or, type SQL, sql } from 'drizzle-orm';
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

/** The people holding any of these e-mails (by address or hash), phone numbers or identity ids. */
export async function peopleHolding(db: Executor, keys: SuppressionKey[]): Promise<number[]> {
  const pick = (kind: SuppressionKind) =>
    sql`array(select json_array_elements_text(${JSON.stringify(keys.filter((k) => k.kind === kind).map((k) => k.value))}::json))`;
  const result = (await db.execute(sql`select distinct h.id::text as id from (
       select identity_id as id from person_emails
         where address = any(${pick('email')}) or md5 = any(${pick('md5')})
           or sha256 = any(${pick('sha256')})
       union all select identity_id from person_phones where number = any(${pick('phone')})
       union all select id from people where id = any(${pick('identity')}::bigint[])) h`)) as unknown as {
    rows: { id: string }[];
  };
  return result.rows.map((r) => Number(r.id));
}
