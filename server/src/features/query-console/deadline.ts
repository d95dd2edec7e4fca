/**
 * The server's own deadline for a console run on PostgreSQL: statement_timeout is the statement's to change
 * (set_config works for any role), so past the limit plus a grace the server cancels the backend from a connection
 * of its own, repeating while it runs on (a cancel that finds it between statements is dropped), and then ends it
 * with pg_terminate_backend. It also ends a backend held idle by a consumer that stopped reading. The backend is
 * matched by pid and start time, so a pid reused after the run never gets the signal.
 */
import type pg from 'pg';
import { connectCluster } from '../../db/clusters';
import { DEADLINE_GRACE_MS, TERMINATE_AFTER_MS } from './boundary';

export interface Deadline {
  /** What the server had to do, if it had to: the run's failure is then the deadline's. */
  readonly fired: 'cancelled' | 'terminated' | null;
  /** The run is over: no more signals; waits for one being sent. */
  disarm(): Promise<void>;
}

const CANCEL_EVERY_MS = 100;

export function armDeadline(url: string, backend: { pid: number; started: string }, timeoutMs: number): Deadline {
  let fired: Deadline['fired'] = null;
  let over = false;
  let signalling: Promise<void> = Promise.resolve();
  const signal = async (fn: 'pg_cancel_backend' | 'pg_terminate_backend', client: pg.Client) => {
    const { rows } = await client.query(
      `select ${fn}(pid) as ok from pg_stat_activity where pid = $1 and backend_start = $2::timestamptz`,
      [backend.pid, backend.started],
    );
    return rows[0]?.ok === true;
  };
  const stop = async () => {
    const client = await connectCluster(url, {
      connectTimeoutMs: 4_000,
      statementTimeoutMs: 4_000,
      applicationName: 'tessera-query-console',
    });
    try {
      const until = Date.now() + TERMINATE_AFTER_MS;
      while (!over && Date.now() < until) {
        if (!(await signal('pg_cancel_backend', client))) return; // the backend is gone
        fired ??= 'cancelled';
        await new Promise((resolve) => setTimeout(resolve, CANCEL_EVERY_MS));
      }
      if (!over && (await signal('pg_terminate_backend', client))) fired = 'terminated';
    } finally {
      await client.end().catch(() => {});
    }
  };
  const timer = setTimeout(() => {
    signalling = stop().catch(() => {}); // unreachable: the client's own query timeout still ends the run
  }, timeoutMs + DEADLINE_GRACE_MS);
  return {
    get fired() {
      return fired;
    },
    async disarm() {
      over = true;
      clearTimeout(timer);
      await signalling;
    },
  };
}
