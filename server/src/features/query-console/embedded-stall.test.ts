/**
 * Issue 28 finding 3 on the embedded engine: a pg_sleep wrapped in query_to_xml('…') froze the server (another
 * session's lookup waited 5.5 s). PGlite runs inside the server on the lookups' one connection, and nothing can stop
 * a statement there, so the bound is what may start (decision 0048): no sleep, no built-in that runs SQL given as
 * text, no function that is not built in, no recursion, and a planned cost within EMBEDDED_COST_LIMIT. A lookup
 * sent together with a refused statement answers, and the statement never ran.
 */
import { randomUUID } from 'node:crypto';
import { QUERY_MESSAGES } from '@tessera/common/query-console';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryRuns } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';
import { BOUNDARY_MESSAGES, EMBEDDED_COST_LIMIT } from './boundary';
import { confirmedRoot } from './test-support';

const embedded = inject('databaseUrl') === null;
let t: TestApp;
const api = consoleClient(() => t.app);
let rootCookie: string;
let customerCookie: string;

beforeAll(async () => {
  t = await buildTestApp();
  ({ cookie: rootCookie } = await confirmedRoot(t));
  customerCookie = await signIn(t.app, (await makeCustomer(t.database)).email);
});
afterAll(() => t.app.close());

describe.runIf(embedded)('the embedded engine: what could stall lookups never starts', () => {
  it.each([
    ['query_to_xml', "select query_to_xml('select pg_sleep(5)', true, true, '')", 'query_to_xml'],
    [
      'query_to_xml, schema-qualified',
      "select pg_catalog.query_to_xml('select pg_sleep(5)', true, true, '')",
      'query_to_xml',
    ],
    ['a sleep in EXPLAIN', 'explain select pg_sleep(5)', 'pg_sleep'],
  ])('a lookup sent with %s answers; the statement is refused and never ran', async (_, sql, fn) => {
    const p = person();
    await load(t.database, p);
    const runId = randomUUID();
    const events: string[] = [];
    const noted = <T extends { statusCode: number }>(what: string, res: T) => {
      events.push(`${what} ${res.statusCode}`);
      return res;
    };
    const statement = api
      .post('/v2/query', rootCookie, { cluster: 'main', sql, runId })
      .then((res) => noted('console', res));
    const lookup = api.get(`/v2/identities/byId?id=${p.id}`, customerCookie).then((res) => noted('lookup', res));
    const [refused, found] = await Promise.all([statement, lookup]);
    expect(events.sort()).toEqual(['console 400', 'lookup 200']);
    expect(refused.json().error).toBe(
      fn === 'pg_sleep' ? QUERY_MESSAGES.embeddedSleep(fn) : BOUNDARY_MESSAGES.embeddedSqlText(fn),
    );
    expect(found.json().identities.map((i: { id: number }) => i.id)).toEqual([p.id]);
    const [run] = await t.database.db.select().from(queryRuns).where(eq(queryRuns.runId, runId));
    expect(run).toMatchObject({ outcome: 'refused', rowCount: null });
  });

  it('refuses a plan above the cost limit, and runs one within it', async () => {
    const over = await api.post('/v2/query', rootCookie, {
      cluster: 'main',
      sql: 'select count(*) from generate_series(1, 10000000)',
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toBe(BOUNDARY_MESSAGES.embeddedCost(125_000.01));
    expect(EMBEDDED_COST_LIMIT).toBeLessThan(125_000);
    const within = await api.post('/v2/query', rootCookie, {
      cluster: 'main',
      sql: 'select count(*) from generate_series(1, 1000)',
    });
    expect(within.json().rows).toEqual([['1000']]);
  });
});
