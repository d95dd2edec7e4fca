/**
 * Runs one guarded statement on a cluster (decisions 0036 and 0048): in a READ ONLY transaction that is always
 * rolled back, as the role tessera_query_console inside its function run(), which stops at the row cap or
 * RESULT_MAX_BYTES of row text. run() makes the whole result in one statement, so statement_timeout covers all of
 * it; the rows are then read through a cursor a batch at a time, so the server never holds more than a batch.
 * A PostgreSQL node gets a connection of its own, ended afterwards, and a deadline of the server's that cancels and
 * then ends the backend. The embedded engine (PGlite) runs inside this process, where nothing can stop a statement:
 * there what could run long is refused first (embedded.ts).
 */

import { CLUSTER_CONNECT_TIMEOUT_MS } from '@tessera/common/clusters';
import type { QueryColumn } from '@tessera/common/query-console';
import type { ClusterTarget } from '../../db/clusters';
import { connectCluster } from '../../db/clusters';
import { DEADLINE_GRACE_MS, LOCK_TIMEOUT_MS, RESULT_MAX_BYTES, TERMINATE_AFTER_MS } from './boundary';
import { armDeadline } from './deadline';
import { describeStatement, type Field } from './describe';
import { checkEmbeddedPlan, refuseOnEmbedded } from './embedded';
import type { GuardedStatement } from './guard';
import { type Cell, rowCells } from './row-literal';
import { RunStopped } from './runner-errors';
import { CURSOR, DECLARE_SQL, READINESS_SQL, requireReady, transactionSettings } from './sandbox';
import type { Session } from './session';

export type { Cell } from './row-literal';
export { QueryRefused } from './runner-errors';

export interface RunOptions {
  maxRows: number;
  timeoutMs: number;
  explain: boolean;
  /** Row text the result may hold; RESULT_MAX_BYTES unless given. */
  maxBytes?: number;
  /** Told the PostgreSQL backend running the statement, before it starts (for pg_cancel_backend). */
  onBackend?: (pid: number) => Promise<void>;
  /** Rows fetched per round trip; the CSV export streams each batch out before it fetches the next. */
  batchRows?: number;
}

/** Why a result is shorter than the statement's: the row cap or the byte cap. */
export type Cut = 'rows' | 'bytes' | null;

export interface Consumer {
  /** The columns, and whether the rows to follow are cut (known before the first row). */
  columns(columns: QueryColumn[], cut: Cut): Promise<void> | void;
  rows(rows: Cell[][]): Promise<void> | void;
}

export interface RunResult {
  rowCount: number;
  truncated: boolean;
  cut: Cut;
}

const DEFAULT_BATCH = 1_000;

/** This connection's backend, matched later by pid and start time (a pid may be reused once it ends). */
const THIS_BACKEND = 'from pg_stat_activity where pid = pg_backend_pid()';

async function typeNames(session: Session, oids: number[]): Promise<Map<number, string>> {
  if (oids.length === 0) return new Map();
  const rows = await session.fetch(`select oid::int, typname::text from pg_type where oid in (${oids.join(',')})`);
  return new Map(rows.map(([oid, name]) => [Number(oid), String(name)]));
}

/** The statement's text as run: EXPLAIN of it when asked. */
function runText(statement: GuardedStatement, explain: boolean): string {
  return statement.kind === 'select' && explain ? `explain ${statement.text}` : statement.text;
}

/** Inside the read-only transaction, as the role: runs the statement through run() and hands its rows over. */
async function execute(
  session: Session,
  text: string,
  fields: Field[],
  options: RunOptions,
  consumer: Consumer,
): Promise<RunResult> {
  const names = await typeNames(session, [...new Set(fields.map((f) => f.dataTypeID))]);
  await session.exec(DECLARE_SQL, [text, options.maxRows, options.maxBytes ?? RESULT_MAX_BYTES]);
  // run() makes the whole result here; its last row says whether it was cut, which the CSV export's headers need.
  const [last] = await session.fetch(`fetch last from ${CURSOR}`);
  let cut = (last?.[1] ?? null) as Cut;
  await session.exec(`move absolute 0 in ${CURSOR}`);
  await consumer.columns(
    fields.map((f) => ({ name: f.name, type: names.get(f.dataTypeID) ?? 'unknown' })),
    cut,
  );
  const batch = Math.max(1, options.batchRows ?? DEFAULT_BATCH);
  let rowCount = 0;
  for (;;) {
    const fetched = await session.fetch(`fetch forward ${batch} from ${CURSOR}`);
    const lines = fetched.filter((r) => r[1] === null);
    // run() keeps the row cap; this holds it should run() ever not (it is the database's to define).
    const rows = lines.slice(0, options.maxRows - rowCount).map((r) => rowCells(String(r[0]), fields.length));
    if (rows.length < lines.length) cut = 'rows';
    rowCount += rows.length;
    if (rows.length > 0) await consumer.rows(rows);
    if (fetched.length < batch || rows.length < fetched.length) return { rowCount, truncated: cut !== null, cut };
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
): Promise<RunResult> {
  refuseOnEmbedded(statement);
  const client = target.client;
  const statementText = runText(statement, options.explain);
  // Parse and describe only (nothing runs); PGlite's describe cannot run inside its transaction.
  const fields = (await client.describeQuery(statementText)).resultFields;
  return client.transaction(async (tx) => {
    const session: Session = {
      exec: async (sql, params) => void (await tx.query(sql, params)),
      fetch: async (sql, params) => {
        const r = await tx.query<unknown[]>(sql, params, { rowMode: 'array' });
        return r.rows.map((row) => row.map(text));
      },
    };
    try {
      await session.exec('set transaction read only');
      requireReady(target.name, (await session.fetch(READINESS_SQL))[0]?.[0]);
      for (const setting of transactionSettings(LOCK_TIMEOUT_MS)) await session.exec(setting);
      await checkEmbeddedPlan(session, statement, options.explain);
      return await execute(session, statementText, fields, options, consumer);
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
): Promise<RunResult> {
  // No start-up settings (PgBouncer in transaction mode refuses them): the limits are set in the transaction below,
  // where a pooled connection keeps them, and so is the backend read, so the deadline signals the right one.
  const statementMs = options.timeoutMs;
  const idleMs = options.timeoutMs + DEADLINE_GRACE_MS + TERMINATE_AFTER_MS + 5_000;
  const client = await connectCluster(target.url, {
    connectTimeoutMs: CLUSTER_CONNECT_TIMEOUT_MS * 2,
    statementTimeoutMs: statementMs,
    startupSettings: false,
    // The server's statement_timeout and then its deadline stop a slow statement; this is for a server that
    // stops answering at all.
    queryTimeoutMs: options.timeoutMs + DEADLINE_GRACE_MS + TERMINATE_AFTER_MS + 3_000,
    applicationName: 'tessera-query-console',
  });
  const session: Session = {
    exec: async (sql, params) => void (await client.query(sql, params)),
    fetch: async (sql, params) => {
      const r = await client.query({
        text: sql,
        values: params,
        rowMode: 'array',
        types: { getTypeParser: () => (v: string) => v },
      });
      return (r.rows as unknown[][]).map((row) => row.map(text));
    },
  };
  let deadline: ReturnType<typeof armDeadline> | null = null;
  try {
    await session.exec('begin transaction read only');
    try {
      // A backend left idle in its transaction (a consumer that stopped reading) is the deadline's to end, so the
      // history can say so; the idle timeout is for a server process that died meanwhile.
      await session.exec(`set local statement_timeout = ${Math.round(statementMs)}`);
      await session.exec(`set local idle_in_transaction_session_timeout = ${Math.round(idleMs)}`);
      const [ready, pid, started] =
        (await session.fetch(`select (${READINESS_SQL}), pid, backend_start::text ${THIS_BACKEND}`))[0] ?? [];
      requireReady(target.name, ready);
      if (options.onBackend && pid) await options.onBackend(Number(pid));
      deadline = armDeadline(target.url, { pid: Number(pid), started: String(started) }, options.timeoutMs);
      for (const setting of transactionSettings(LOCK_TIMEOUT_MS)) await session.exec(setting);
      const statementText = runText(statement, options.explain);
      const fields = await describeStatement(client, statementText);
      return await execute(session, statementText, fields, options, consumer);
    } finally {
      // A session-level advisory lock taken through a wrapper would outlive the run on a pooled server connection.
      await client.query('select pg_advisory_unlock_all()').catch(() => {});
      await client.query('rollback').catch(() => {});
    }
  } catch (err) {
    if (deadline?.fired) throw new RunStopped(options.timeoutMs, deadline.fired);
    throw err;
  } finally {
    await deadline?.disarm();
    await client.end().catch(() => {});
  }
}

/** Runs the statement, handing columns then batches of rows to `consumer`; throws the engine's errors as they are. */
export function runStatement(
  target: ClusterTarget,
  statement: GuardedStatement,
  options: RunOptions,
  consumer: Consumer,
): Promise<RunResult> {
  return target.engine === 'pglite'
    ? onEmbedded(target, statement, options, consumer)
    : onPostgres(target, statement, options, consumer);
}
