/**
 * The database clusters the server knows (issue 20): the main database, always named `main` (embedded PGlite or
 * DATABASE_URL), then those of the CLUSTERS setting. Clusters and the query console reach them through here.
 * A PostgreSQL node gets a connection of its own for each use, never the app's pool: nothing a root does there
 * (a long query, a session setting) can reach the app's connections, and a node that is away costs only the
 * short connect timeout.
 */
import type { PGlite } from '@electric-sql/pglite';
import { MAIN_CLUSTER } from '@tessera/common/clusters';
import pg from 'pg';
import type { Database } from './client';

export type ClusterTarget =
  | { name: string; engine: 'pglite'; client: PGlite }
  | { name: string; engine: 'postgres'; url: string };

export function clusterTargets(database: Database, clusters: Record<string, string>): ClusterTarget[] {
  const main: ClusterTarget =
    database.raw.kind === 'pglite'
      ? { name: MAIN_CLUSTER, engine: 'pglite', client: database.raw.client }
      : { name: MAIN_CLUSTER, engine: 'postgres', url: database.raw.url };
  return [main, ...Object.entries(clusters).map(([name, url]) => ({ name, engine: 'postgres' as const, url }))];
}

export interface ClusterConnectOptions {
  connectTimeoutMs: number;
  /** The server's statement_timeout for this connection. */
  statementTimeoutMs: number;
  /** The server's idle_in_transaction_session_timeout: twice the statement timeout unless given. */
  idleInTransactionTimeoutMs?: number;
  /** The client's own limit, for a server that stops answering altogether. */
  queryTimeoutMs?: number;
  applicationName: string;
  /**
   * False: no settings in the start-up packet (PgBouncer in transaction mode refuses them); the caller sets its
   * limits per transaction. True by default.
   */
  startupSettings?: boolean;
}

/** A connected client of its own; the caller ends it. Its errors never reach the process. */
export async function connectCluster(url: string, options: ClusterConnectOptions): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs,
    ...(options.startupSettings === false
      ? {}
      : {
          statement_timeout: options.statementTimeoutMs,
          idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? options.statementTimeoutMs * 2,
        }),
    // PgBouncer passes this one on in every mode.
    application_name: options.applicationName,
    ...(options.queryTimeoutMs ? { query_timeout: options.queryTimeoutMs } : {}),
  });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  return client;
}

/** A short, safe reason a node could not be reached: the driver's message without the URL or credentials. */
export function unreachableReason(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message.replace(/postgres(ql)?:\/\/\S+/g, '[url]') : '';
  if (code === 'ECONNREFUSED') return 'Connection refused.';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'Host not found.';
  if (/timeout/i.test(message)) return 'No answer within the connect timeout.';
  return message ? message.slice(0, 200) : 'Unreachable.';
}
