/**
 * The query console's decisions: which cluster, whether the statement may run, running it, and recording every
 * run, however it ends, in the user's history and the audit log (text, cluster, rows, duration, outcome).
 */
import { randomUUID } from 'node:crypto';
import type { User } from '@tessera/common/entities';
import { QUERY_MESSAGES, type QueryOutcome } from '@tessera/common/query-console';
import type { Database } from '../../db/client';
import { type ClusterTarget, connectCluster, unreachableReason } from '../../db/clusters';
import { databaseFault } from '../../db/faults';
import { AppError, BadRequest, Conflict, NotFound, Unavailable } from '../../http/errors';
import { audit } from '../audit/record';
import { BOUNDARY_MESSAGES } from './boundary';
import { type GuardedStatement, guardStatement } from './guard';
import { findRunning, finishRun, setRunBackend, startRun } from './repo';
import { type Consumer, type Cut, QueryRefused, runStatement } from './runner';
import { RunStopped } from './runner-errors';

export interface RunRequest {
  cluster: string;
  sql: string;
  maxRows: number;
  explain: boolean;
  runId?: string;
}

export interface Caller {
  user: User;
  ip: string;
}

type Ended = Exclude<QueryOutcome, 'running'>;

/** The outcome to record for a failure, and the error to answer with. */
function classify(err: unknown, cluster: string, timeoutMs: number): { outcome: Ended; error: unknown } {
  if (err instanceof QueryRefused) return { outcome: 'refused', error: err };
  // The server's deadline stopped it: a timeout, whatever the statement had done to its own statement_timeout.
  if (err instanceof RunStopped) return { outcome: 'timeout', error: err };
  if (err instanceof AppError) return { outcome: err.status === 400 ? 'refused' : 'error', error: err };
  const e = err as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : '';
  if (e?.code === '57014' || message.startsWith('Query read timeout')) {
    return /statement timeout|read timeout/.test(message)
      ? { outcome: 'timeout', error: new BadRequest(QUERY_MESSAGES.timeout(timeoutMs / 1000)) }
      : { outcome: 'cancelled', error: new BadRequest(QUERY_MESSAGES.cancelled) };
  }
  if (databaseFault(err)) {
    return {
      outcome: 'error',
      error: new Unavailable(`${QUERY_MESSAGES.unreachable(cluster)} ${unreachableReason(err)}`),
    };
  }
  // The role's privileges said no (a function, a table, another session, changing role): refused, not an error.
  if (e?.code === '42501') return { outcome: 'refused', error: new BadRequest(BOUNDARY_MESSAGES.privilege(message)) };
  if (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
    return { outcome: 'error', error: new BadRequest(`PostgreSQL refused the query: ${message}`) };
  }
  return { outcome: 'error', error: err };
}

/** How long a cancel keeps signalling a run that goes on, and how often. */
const CANCEL_RETRY_MS = 3_000;
const CANCEL_RETRY_EVERY_MS = 100;

export function createQueryConsole(deps: { database: Database; targets: ClusterTarget[]; timeoutMs: number }) {
  const { database } = deps;
  const byName = new Map(deps.targets.map((t) => [t.name, t]));

  function target(name: string): ClusterTarget {
    const found = byName.get(name);
    if (!found) throw new BadRequest(QUERY_MESSAGES.unknownCluster(name, [...byName.keys()]));
    return found;
  }

  async function record(
    caller: Caller,
    runId: string,
    cluster: string,
    sql: string,
    end: {
      outcome: Ended;
      rowCount: number | null;
      ms: number;
      error: string | null;
      cut?: Cut;
    },
  ) {
    await database.transaction(async (tx) => {
      await finishRun(tx, runId, end);
      await audit(tx, {
        action: 'query.run',
        actorId: caller.user.id,
        impersonatorId: caller.user.impersonator,
        targetType: 'cluster',
        targetId: cluster,
        ip: caller.ip,
        detail: {
          runId,
          cluster,
          sql,
          rows: end.rowCount,
          ms: end.ms,
          outcome: end.outcome,
          error: end.error,
          ...(end.cut ? { cut: end.cut } : {}),
        },
      });
    });
  }

  return {
    clusterNames: () => [...byName.keys()],
    engineOf: (name: string) => target(name).engine,

    /** Runs a console statement, handing its columns and rows to `consumer`; every run is recorded. */
    async run(caller: Caller, request: RunRequest, consumer: Consumer, batchRows?: number) {
      const runId = request.runId ?? randomUUID();
      const started = performance.now();
      await startRun(database.db, { runId, userId: caller.user.id, cluster: request.cluster, sql: request.sql });
      try {
        const cluster = target(request.cluster);
        const statement = await guardStatement(request.sql);
        const result = await runStatement(
          cluster,
          statement,
          {
            maxRows: request.maxRows,
            timeoutMs: deps.timeoutMs,
            explain: request.explain,
            batchRows,
            onBackend: (pid) => setRunBackend(database.db, runId, pid),
          },
          consumer,
        );
        const ms = Math.round(performance.now() - started);
        await record(caller, runId, request.cluster, request.sql, {
          outcome: 'ok',
          rowCount: result.rowCount,
          ms,
          error: null,
          cut: result.cut,
        });
        return { ...result, ms, runId };
      } catch (err) {
        const { outcome, error } = classify(err, request.cluster, deps.timeoutMs);
        const ms = Math.round(performance.now() - started);
        const text = error instanceof Error ? error.message : String(error);
        await record(caller, runId, request.cluster, request.sql, { outcome, rowCount: null, ms, error: text });
        throw error;
      }
    },

    /** Asks PostgreSQL to cancel the caller's running query (pg_cancel_backend on its backend). */
    async cancel(caller: Caller, runId: string): Promise<{ runId: string; signalled: boolean }> {
      const run = await findRunning(database.db, caller.user.id, runId);
      if (!run) throw new NotFound(QUERY_MESSAGES.notRunning);
      const cluster = target(run.cluster);
      if (cluster.engine === 'pglite') throw new BadRequest(QUERY_MESSAGES.embeddedCancel);
      if (!run.backendPid) throw new Conflict('The query has not reached the database yet. Please try again.');
      let signalled = false;
      try {
        const client = await connectCluster(cluster.url, {
          connectTimeoutMs: 4_000,
          statementTimeoutMs: 4_000,
          applicationName: 'tessera-query-console',
        });
        try {
          // The backend is recorded just before the statement reaches it, and PostgreSQL drops a cancel that finds
          // its backend between statements: signal again while the run goes on, for a few seconds at most.
          const until = Date.now() + CANCEL_RETRY_MS;
          for (;;) {
            const { rows } = await client.query('select pg_cancel_backend($1) as ok', [run.backendPid]);
            signalled ||= rows[0]?.ok === true;
            if (rows[0]?.ok !== true || Date.now() >= until) break;
            await new Promise((resolve) => setTimeout(resolve, CANCEL_RETRY_EVERY_MS));
            if (!(await findRunning(database.db, caller.user.id, runId))) break;
          }
        } finally {
          await client.end().catch(() => {});
        }
      } catch (err) {
        throw new Unavailable(`${QUERY_MESSAGES.unreachable(run.cluster)} ${unreachableReason(err)}`);
      }
      await audit(database.db, {
        action: 'query.cancel',
        actorId: caller.user.id,
        targetType: 'cluster',
        targetId: run.cluster,
        ip: caller.ip,
        detail: { runId, signalled },
      });
      return { runId, signalled };
    },

    /** Tables and their columns on a cluster, for the editor's completion. */
    async schema(name: string): Promise<Record<string, string[]>> {
      const cluster = target(name);
      const statement: GuardedStatement = {
        kind: 'select',
        text: `select table_schema || '.' || table_name, column_name from information_schema.columns
               where table_schema not in ('pg_catalog', 'information_schema') order by 1, ordinal_position`,
        analyze: false,
        functions: new Set(),
        recursive: false,
      };
      const tables: Record<string, string[]> = {};
      try {
        await runStatement(
          cluster,
          statement,
          { maxRows: 20_000, timeoutMs: deps.timeoutMs, explain: false },
          {
            columns: () => {},
            rows: (rows) => {
              for (const [table, column] of rows) {
                const key = table ?? '';
                tables[key] = [...(tables[key] ?? []), column ?? ''];
              }
            },
          },
        );
      } catch (err) {
        throw classify(err, name, deps.timeoutMs).error;
      }
      return tables;
    },
  };
}

export type QueryConsole = ReturnType<typeof createQueryConsole>;
