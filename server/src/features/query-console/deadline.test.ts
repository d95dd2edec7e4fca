/**
 * Issue 28 finding 3: set_config('statement_timeout', '0') let a CSV export run past its limit, and history did
 * not say what happened. Now run() makes the whole result in one statement, under the timeout it started with,
 * and the server keeps a deadline of its own: past it, it cancels and then ends the backend, and the history
 * says which. PostgreSQL only: the embedded engine has nothing that can stop a statement (embedded-stall.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { ANONYMOUS_USER } from '@tessera/common/entities';
import { QUERY_MESSAGES } from '@tessera/common/query-console';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clusterTargets } from '../../db/clusters';
import { queryRuns } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type TestApp } from '../../test/harness';
import { BOUNDARY_MESSAGES } from './boundary';
import { createQueryConsole } from './service';
import { confirmedRoot } from './test-support';

const onPostgres = inject('databaseUrl') !== null;
let t: TestApp;
const api = consoleClient(() => t.app);
let cookie: string;
let root: { id: number; email: string };

beforeAll(async () => {
  t = await buildTestApp({ env: { QUERY_TIMEOUT_MS: '700' } });
  ({ cookie, root } = await confirmedRoot(t));
});
afterAll(() => t.app.close());

const runRow = async (runId: string) =>
  (await t.database.db.select().from(queryRuns).where(eq(queryRuns.runId, runId)))[0]!;

describe.runIf(onPostgres)('limits a statement cannot lift', () => {
  it('a CSV export setting statement_timeout to 0 is still stopped at the limit; history says timeout', async () => {
    // The first 1,000 rows (the export's first batch) lift the limit; the 12 after them sleep 6 s in all.
    const runId = randomUUID();
    const res = await api.post('/v2/query/csv', cookie, {
      cluster: 'main',
      sql: `select case when g <= 1000 then set_config('statement_timeout', '0', true) else pg_sleep(0.5)::text end
            from generate_series(1, 1012) g`,
      maxRows: 2000,
      runId,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(QUERY_MESSAGES.timeout(0.7));
    expect(await runRow(runId)).toMatchObject({
      outcome: 'timeout',
      error: QUERY_MESSAGES.timeout(0.7),
      backendPid: null,
    });
  });

  it('the server ends a backend kept past its deadline, and history says it did', async () => {
    // A statement that lifts its own idle limit, read by a consumer that stops reading: without the server's
    // deadline its transaction (and snapshot) would stay open for as long as the consumer waits.
    const queries = createQueryConsole({
      database: t.database,
      targets: clusterTargets(t.database, {}),
      timeoutMs: 300,
    });
    const caller = {
      user: { ...ANONYMOUS_USER, id: root.id, email: root.email, role: 'root' as const },
      ip: '127.0.0.1',
    };
    const runId = randomUUID();
    const events: string[] = [];
    const running = queries.run(
      caller,
      {
        cluster: 'main',
        sql: "select g, set_config('idle_in_transaction_session_timeout', '0', true) from generate_series(1, 3) g",
        maxRows: 10,
        explain: false,
        runId,
      },
      {
        columns: () => {},
        rows: async () => {
          if (events.length > 0) return;
          events.push('consumer stalls');
          const pid = (await runRow(runId)).backendPid;
          const alive = async () =>
            (
              await t.database.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where pid = $1', [
                pid,
              ])
            )[0]!.n;
          while ((await alive()) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
          events.push('backend gone');
        },
      },
      1,
    );
    await expect(running).rejects.toThrow(BOUNDARY_MESSAGES.stopped(0.3, 'terminated'));
    events.push('run ended');
    expect(events).toEqual(['consumer stalls', 'backend gone', 'run ended']);
    expect(await runRow(runId)).toMatchObject({
      outcome: 'timeout',
      error: BOUNDARY_MESSAGES.stopped(0.3, 'terminated'),
      backendPid: null,
    });
  });
});
