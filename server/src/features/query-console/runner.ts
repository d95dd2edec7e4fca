/**
 * Runs one guarded statement on a cluster: in a READ ONLY transaction that is always rolled back, with the
 * console's statement_timeout, through a cursor so no more than the row cap (plus one, to tell truncation) is
 * ever fetched. A PostgreSQL node gets a connection of its own, ended afterwards, so nothing a statement leaves
 * in its session outlives it. The embedded engine (PGlite) runs inside this process, where no timeout can fire
 * and nothing can cancel: there the statement runs in PGlite's exclusive transaction, and a statement that could
 * run long (a sleep, a recursive query, EXPLAIN ANALYZE, a planned cost above EMBEDDED_MAX_COST) is refused first.
 */

import { CLUSTER_CONNECT_TIMEOUT_MS } from '@tessera/common/clusters';
import { EMBEDDED_MAX_COST, QUERY_MESSAGES, type QueryColumn } from '@tessera/common/query-console';
import type { ClusterTarget } from '../../db/clusters';
import { connectCluster } from '../../db/clusters';
import { BadRequest } from '../../http/errors';
import type { GuardedStatement } from './guard';

export type Cell = string | null;

/** A refusal before the statement ran (audited as refused, not as an error). */
export class QueryRefused extends BadRequest {}

interface Fetched {
  fields: { name: string; dataTypeID: number }[];
  rows: Cell[][];
}

/** What a run needs of the connection, the same on both engines. */
interface Session {
  exec(text: string): Promise<void>;
  fetch(text: string): Promise<Fetched>;
}

export interface RunOptions {
  maxRows: number;
  timeoutMs: number;
  explain: boolean;
  /** Told the PostgreSQL backend running the statement, before it starts (for pg_cancel_backend). */
  onBackend?: (pid: number) => Promise<void>;
  /** Rows fetched per round trip; the CSV export streams each batch out before it fetches the next. */
  batchRows?: number;
}

export interface Consumer {
  columns(columns: QueryColumn[]): Promise<void> | void;
  rows(rows: Cell[][]): Promise<void> | void;
}

const CURSOR = 'tessera_console';
const SLEEPS = ['pg_sleep', 'pg_sleep_for', 'pg_sleep_until'];

async function typeNames(session: Session, oids: number[]): Promise<Map<number, string>> {
  if (oids.length === 0) return new Map();
  const { rows } = await session.fetch(`select oid::int, typname from pg_type where oid in (${oids.join(',')})`);
  return new Map(rows.map(([oid, name]) => [Number(oid), String(name)]));
}

/** The embedded engine's refusals: what could hold the server with no way to stop it. */
async function checkEmbedded(session: Session, statement: GuardedStatement, explain: boolean): Promise<void> {
  const sleep = SLEEPS.find((f) => statement.functions.has(f));
  if (sleep) throw new QueryRefused(QUERY_MESSAGES.embeddedSleep(sleep));
  if (statement.recursive) throw new QueryRefused(QUERY_MESSAGES.embeddedRecursive);
  if (statement.analyze) throw new QueryRefused(QUERY_MESSAGES.embeddedAnalyze);
  if (statement.kind !== 'select' || explain) return;
  const { rows } = await session.fetch(`explain (format json) ${statement.text}`);
  const plan = JSON.parse(String(rows[0]?.[0] ?? '[]')) as { Plan?: { 'Total Cost'?: number } }[];
  const cost = plan[0]?.Plan?.['Total Cost'] ?? 0;
  if (cost > EMBEDDED_MAX_COST) throw new QueryRefused(QUERY_MESSAGES.embeddedCost(cost));
}

async function execute(
  session: Session,
  statement: GuardedStatement,
  options: RunOptions,
  consumer: Consumer,
): Promise<{ rowCount: number; truncated: boolean }> {
  const cap = options.maxRows;
  const direct = statement.kind !== 'select' || options.explain;
  const text = statement.kind === 'select' && options.explain ? `explain ${statement.text}` : statement.text;
  const batch = Math.max(1, options.batchRows ?? cap + 1);
  let rowCount = 0;
  let first = true;
  const take = async (fetched: Fetched): Promise<boolean> => {
    if (first) {
      first = false;
      const names = await typeNames(session, [...new Set(fetched.fields.map((f) => f.dataTypeID))]);
      await consumer.columns(fetched.fields.map((f) => ({ name: f.name, type: names.get(f.dataTypeID) ?? 'unknown' })));
    }
    const room = cap - rowCount;
    const rows = fetched.rows.slice(0, room);
    rowCount += rows.length;
    if (rows.length > 0) await consumer.rows(rows);
    return fetched.rows.length > room;
  };
  if (direct) {
    const truncated = await take(await session.fetch(text));
    return { rowCount, truncated };
  }
  await session.exec(`declare ${CURSOR} no scroll cursor for ${text}`);
  for (;;) {
    const want = Math.min(batch, cap + 1 - rowCount);
    const fetched = await session.fetch(`fetch forward ${want} from ${CURSOR}`);
    const over = await take(fetched);
    if (over) return { rowCount, truncated: true };
    if (fetched.rows.length < want) return { rowCount, truncated: false };
  }
}

function text(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}

async function onEmbedded(
  target: Extract<ClusterTarget, { engine: 'pglite' }>,
  statement: GuardedStatement,
  options: RunOptions,
  consumer: Consumer,
) {
  const client = target.client;
  // Every value as PostgreSQL writes it, as on a PostgreSQL node: one text parser per type the engine knows.
  const oids = (await client.query<{ oid: number }>('select oid::int as oid from pg_type')).rows;
  const parsers = Object.fromEntries(oids.map((o) => [o.oid, (v: string) => v]));
  return client.transaction(async (tx) => {
    const session: Session = {
      exec: async (sql) => void (await tx.exec(sql)),
      fetch: async (sql) => {
        const r = await tx.query<unknown[]>(sql, [], { rowMode: 'array', parsers });
        return { fields: r.fields, rows: r.rows.map((row) => row.map(text)) };
      },
    };
    try {
      await session.exec('set transaction read only');
      await checkEmbedded(session, statement, options.explain);
      return await execute(session, statement, options, consumer);
    } finally {
      await tx.rollback();
    }
  });
}

async function onPostgres(
  target: Extract<ClusterTarget, { engine: 'postgres' }>,
  statement: GuardedStatement,
  options: RunOptions,
  consumer: Consumer,
) {
  const client = await connectCluster(target.url, {
    connectTimeoutMs: CLUSTER_CONNECT_TIMEOUT_MS * 2,
    statementTimeoutMs: options.timeoutMs,
    // The server's statement_timeout stops a slow statement; this is for a server that stops answering at all.
    queryTimeoutMs: options.timeoutMs + 5_000,
    applicationName: 'tessera-query-console',
  });
  try {
    const session: Session = {
      exec: async (sql) => void (await client.query(sql)),
      fetch: async (sql) => {
        const r = await client.query({ text: sql, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } });
        return { fields: r.fields, rows: (r.rows as unknown[][]).map((row) => row.map(text)) };
      },
    };
    const [pid] = (await session.fetch('select pg_backend_pid()')).rows[0] ?? [];
    if (options.onBackend && pid) await options.onBackend(Number(pid));
    await session.exec('begin transaction read only');
    try {
      return await execute(session, statement, options, consumer);
    } finally {
      await client.query('rollback').catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs the statement, handing columns then batches of rows to `consumer`; throws the engine's errors as they are. */
export function runStatement(
  target: ClusterTarget,
  statement: GuardedStatement,
  options: RunOptions,
  consumer: Consumer,
): Promise<{ rowCount: number; truncated: boolean }> {
  return target.engine === 'pglite'
    ? onEmbedded(target, statement, options, consumer)
    : onPostgres(target, statement, options, consumer);
}
