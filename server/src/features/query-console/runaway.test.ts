/**
 * Runaway queries. On PostgreSQL the statement timeout stops them (400 naming it, audited as timeout) and Cancel
 * stops one through pg_cancel_backend. On the embedded engine nothing can stop a statement once it runs, so what
 * could run long is refused before it starts, and Cancel says so.
 */
import { randomUUID } from 'node:crypto';
import { QUERY_MESSAGES } from '@tessera/common/query-console';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { auditLog, queryRuns } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type TestApp } from '../../test/harness';
import { confirmedRoot } from './test-support';

const onPostgres = inject('databaseUrl') !== null;
let t: TestApp;
const api = consoleClient(() => t.app);
let cookie: string;
let rootId: number;

beforeAll(async () => {
  t = await buildTestApp({ env: { QUERY_TIMEOUT_MS: '700' } });
  ({
    cookie,
    root: { id: rootId },
  } = await confirmedRoot(t));
});
afterAll(() => t.app.close());

const run = (body: Record<string, unknown>) => api.post('/v2/query', cookie, { cluster: 'main', ...body });

async function lastOutcome() {
  const [row] = await t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.actorId, rootId), eq(auditLog.action, 'query.run')))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return (row!.detail as { outcome: string }).outcome;
}

describe.runIf(onPostgres)('on PostgreSQL', () => {
  it('stops a query at the statement timeout', async () => {
    const res = await run({ sql: 'select pg_sleep(5)' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(QUERY_MESSAGES.timeout(0.7));
    expect(await lastOutcome()).toBe('timeout');
  });

  it('cancels a running query through pg_cancel_backend', async () => {
    // An app with the default timeout, so only Cancel can end this statement early.
    const patient = await buildTestApp();
    const api = consoleClient(() => patient.app);
    const { cookie } = await confirmedRoot(patient);
    const runId = randomUUID();
    const running = api.post('/v2/query', cookie, { cluster: 'main', sql: 'select pg_sleep(8), 1', runId });
    let started = false;
    while (!started) {
      const [row] = await t.database.db
        .select()
        .from(queryRuns)
        .where(and(eq(queryRuns.runId, runId), isNotNull(queryRuns.backendPid)));
      started = Boolean(row);
      if (!started) await new Promise((r) => setTimeout(r, 20));
    }
    // The backend is recorded a moment before its statement starts: one cancel, which the server repeats while
    // the run goes on (a cancel that found the backend between statements was dropped under load).
    const res = await api.post('/v2/query/cancel', cookie, { runId });
    expect(res.statusCode).toBe(200);
    expect(res.json().queryCancel.signalled).toBe(true);
    const answer = await running;
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toBe(QUERY_MESSAGES.cancelled);
    const [row] = await patient.database.db.select().from(queryRuns).where(eq(queryRuns.runId, runId));
    expect(row).toMatchObject({ outcome: 'cancelled', backendPid: null });
    expect((await api.post('/v2/query/cancel', cookie, { runId })).statusCode).toBe(404);
    await patient.app.close();
  });
});

describe.runIf(!onPostgres)('on the embedded engine', () => {
  it.each([
    ['select pg_sleep(30)', QUERY_MESSAGES.embeddedSleep('pg_sleep')],
    ["select pg_catalog.pg_sleep_for('1 hour')", QUERY_MESSAGES.embeddedSleep('pg_sleep_for')],
    [
      'with recursive n(i) as (select 1 union all select i + 1 from n) select count(*) from n',
      QUERY_MESSAGES.embeddedRecursive,
    ],
    ['explain analyze select 1', QUERY_MESSAGES.embeddedAnalyze],
  ])('refuses %s before it runs', async (sql, message) => {
    const res = await run({ sql });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
    expect(await lastOutcome()).toBe('refused');
  });

  it('refuses a query whose planned cost is above the limit', async () => {
    const res = await run({ sql: 'select count(*) from generate_series(1, 100000) a, generate_series(1, 100000) b' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/planned cost .* is above the limit/);
  });

  it('says a query there cannot be cancelled', async () => {
    const runId = randomUUID();
    await t.database.db.insert(queryRuns).values({ runId, userId: rootId, cluster: 'main', sql: 'select 1' });
    const res = await api.post('/v2/query/cancel', cookie, { runId });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(QUERY_MESSAGES.embeddedCancel);
  });
});

it('404 when cancelling a run that is not running', async () => {
  const res = await api.post('/v2/query/cancel', cookie, { runId: randomUUID() });
  expect(res.statusCode).toBe(404);
  expect(res.json().error).toBe(QUERY_MESSAGES.notRunning);
});
