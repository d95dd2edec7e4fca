/**
 * Whether a cluster's pools fit what PostgreSQL allows (decision 0043): WEB_CONCURRENCY processes of POOL_SIZE
 * connections each, on a server whose max_connections less its reserved ones may be smaller. Checked by the primary
 * at start and told as a warning (other clients share the server, and PgBouncer in front changes the sum).
 */
import { type Database, POOL_SIZE } from './client';

export interface Budget {
  maxConnections: number;
  reserved: number;
  processes: number;
  poolSize: number;
}

export function budgetWarning(b: Budget): string | null {
  const need = b.processes * b.poolSize;
  const allowed = b.maxConnections - b.reserved;
  if (need <= allowed) return null;
  return (
    `${b.processes} server processes (WEB_CONCURRENCY) may hold ${need} PostgreSQL connections, more than the ` +
    `${allowed} the server allows (max_connections ${b.maxConnections} less ${b.reserved} reserved): lower ` +
    'WEB_CONCURRENCY, raise max_connections, or put PgBouncer in front (DATABASE_POOL_MODE=transaction).'
  );
}

/** The warning for this database and number of processes, or null when their pools fit. */
export async function connectionBudgetWarning(database: Database, processes: number): Promise<string | null> {
  const [row] = await database.query<{ max: string; reserved: string }>(
    `select current_setting('max_connections') as max, current_setting('superuser_reserved_connections') as reserved`,
  );
  return budgetWarning({
    maxConnections: Number(row!.max),
    reserved: Number(row!.reserved),
    processes,
    poolSize: POOL_SIZE,
  });
}
