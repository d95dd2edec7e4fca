/**
 * Monthly partitions of the append-only tables (decision 0047): `usage` by its `month` column (a date), the lookup
 * audit trail by `at` (timestamptz). A month's partition is `{table}_{YYYY}_{MM}`; rows of a month without one land
 * in `{table}_default`. Partitions are made ahead by a job in every process (making one twice is harmless), and
 * retention drops the months wholly past its cutoff instead of deleting their rows.
 */
import { sql } from 'drizzle-orm';
import type { Database } from './client';

export const MONTHLY_TABLES = { usage: 'date', lookup_audit: 'timestamptz' } as const;
export type MonthlyTable = keyof typeof MONTHLY_TABLES;

/** The first instant of the UTC month `offset` months from `at`. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

const name = (table: MonthlyTable, month: Date) =>
  `${table}_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;

const bound = (table: MonthlyTable, month: Date) =>
  MONTHLY_TABLES[table] === 'date' ? month.toISOString().slice(0, 10) : month.toISOString();

/** Already there, made by another process at the same moment, or holding rows in the default partition. */
const HARMLESS = new Set(['42P07', '23505']);

/**
 * Makes the partitions of the months from `from` to `to` (inclusive) that do not exist. A month whose rows already
 * sit in the default partition is left there (named in the result), never failing the others.
 */
export async function ensureMonths(
  database: Database,
  table: MonthlyTable,
  from: Date,
  to: Date,
): Promise<{ made: string[]; blocked: string[] }> {
  const made: string[] = [];
  const blocked: string[] = [];
  for (let month = monthStart(from); month <= to; month = monthStart(month, 1)) {
    const partition = name(table, month);
    const [exists] = await database.query<{ n: number }>('select count(*)::int as n from pg_class where relname = $1', [
      partition,
    ]);
    if (exists!.n > 0) continue;
    try {
      await database.query(
        `create table if not exists ${partition} partition of ${table}
         for values from ('${bound(table, month)}') to ('${bound(table, monthStart(month, 1))}')`,
      );
      made.push(partition);
    } catch (error) {
      const code = (error as { code?: string }).code;
      // 23514: the default partition holds rows of that month (a back-dated write); they stay there.
      if (code === '23514') blocked.push(partition);
      else if (!HARMLESS.has(code ?? '')) throw error;
    }
  }
  return { made, blocked };
}

/** Drops the month partitions that end at or before `cutoff`: every row in them is older. Returns their names. */
export async function dropMonthsBefore(database: Database, table: MonthlyTable, cutoff: Date): Promise<string[]> {
  const partitions = await database.query<{ relname: string }>(
    `select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = $1::regclass order by c.relname`,
    [table],
  );
  const dropped: string[] = [];
  const pattern = new RegExp(`^${table}_(\\d{4})_(\\d{2})$`);
  for (const { relname } of partitions) {
    const match = pattern.exec(relname);
    if (!match) continue;
    const end = new Date(Date.UTC(Number(match[1]), Number(match[2]), 1));
    if (end > cutoff) continue;
    // Dropping takes the parent's strongest lock: never queue every metering insert behind a long report for it.
    // Given up after 2 s; the next run tries again.
    const gone = await database
      .transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '2s'`);
        await tx.execute(sql.raw(`drop table if exists ${relname}`));
        return true;
      })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === '55P03' || /lock timeout/.test(String(error))) return false;
        throw error;
      });
    if (gone) dropped.push(relname);
  }
  return dropped;
}
