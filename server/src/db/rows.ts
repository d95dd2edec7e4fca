/** Raw statements' rows, typed by the caller: drizzle's `db.execute` result type does not carry them. */
import type { SQL } from 'drizzle-orm';
import type { Executor } from './client';

/** The rows of a `db.execute(sql...)` result. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Runs a raw statement and gives its rows. */
export async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}
