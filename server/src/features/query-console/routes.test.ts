/**
 * The query console by outcome and rank: 401 signed out, 403 below root (super included), 403 step_up_required
 * without a fresh password, 400 naming why a write, DDL, second statement or bad cap is refused, 200 with the
 * result capped at maxRows; nothing is ever changed, and every run is in the history and the audit log.
 */
import { randomUUID } from 'node:crypto';
import { QUERY_MESSAGES } from '@tessera/common/query-console';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';
import { BOUNDARY_MESSAGES } from './boundary';
import { confirmedRoot } from './test-support';

let t: TestApp;
const api = consoleClient(() => t.app);
let cookie: string;
let rootId: number;
const table = `qc_${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  t = await buildTestApp({ env: { CLUSTERS: 'down=postgres://tessera@127.0.0.1:1/none' } });
  const signedIn = await confirmedRoot(t);
  cookie = signedIn.cookie;
  rootId = signedIn.root.id;
  await t.database.db.execute(sql.raw(`create table ${table} (id int primary key, name text)`));
  await t.database.db.execute(sql.raw(`insert into ${table} values (1, 'one'), (2, 'two'), (3, null)`));
  await t.database.db.execute(sql.raw(`create sequence ${table}_seq`));
});
afterAll(() => t.app.close());

const run = (body: Record<string, unknown>, as = cookie) => api.post('/v2/query', as, { cluster: 'main', ...body });

async function lastAudit() {
  const [row] = await t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.actorId, rootId), eq(auditLog.action, 'query.run')))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row!.detail as Record<string, unknown>;
}

describe('rank', () => {
  const calls: [string, string, unknown?][] = [
    ['POST', '/v2/query', { cluster: 'main', sql: 'select 1' }],
    ['POST', '/v2/query/csv', { cluster: 'main', sql: 'select 1' }],
    ['POST', '/v2/query/cancel', { runId: randomUUID() }],
    ['GET', '/v2/query/schema?cluster=main'],
    ['GET', '/v2/query/history'],
    ['GET', '/v2/saved-queries'],
    ['POST', '/v2/saved-queries', { name: 'x', cluster: 'main', sql: 'select 1' }],
    ['DELETE', '/v2/saved-queries/1'],
  ];

  it('401 signed out', async () => {
    for (const [method, url, payload] of calls) {
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(res.statusCode, url).toBe(401);
    }
  });

  it('403 for super and admin', async () => {
    for (const role of ['super', 'admin'] as const) {
      const other = await signIn(t.app, (await makeUser(t.database, role)).email);
      for (const [method, url, payload] of calls) {
        const res =
          method === 'GET'
            ? await api.get(url, other)
            : method === 'DELETE'
              ? await api.del(url, other)
              : await api.post(url, other, payload);
        expect(res.statusCode, `${role} ${url}`).toBe(403);
        expect(res.json().code).toBe('forbidden');
      }
    }
  });
});

describe('POST /v2/query: 200', () => {
  it('answers columns with their types and rows as PostgreSQL writes them', async () => {
    const res = await run({ sql: `select id, name, now() as at from ${table} order by id` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.columns).toEqual([
      { name: 'id', type: 'int4' },
      { name: 'name', type: 'text' },
      { name: 'at', type: 'timestamptz' },
    ]);
    expect(body.rows.map((r: unknown[]) => r.slice(0, 2))).toEqual([
      ['1', 'one'],
      ['2', 'two'],
      ['3', null],
    ]);
    expect(body).toMatchObject({ rowCount: 3, truncated: false });
    expect(typeof body.ms).toBe('number');
    expect(await lastAudit()).toMatchObject({ cluster: 'main', rows: 3, outcome: 'ok', sql: expect.any(String) });
  });

  it('honours the row cap (default 1,000) and says the result was cut', async () => {
    const capped = await run({ sql: 'select g from generate_series(1, 50) g', maxRows: 10 });
    expect(capped.json()).toMatchObject({ rowCount: 10, truncated: true });
    expect(capped.json().rows).toHaveLength(10);
    const byDefault = await run({ sql: 'select g from generate_series(1, 1500) g' });
    expect(byDefault.json()).toMatchObject({ rowCount: 1000, truncated: true });
    const exact = await run({ sql: 'select g from generate_series(1, 10) g', maxRows: 10 });
    expect(exact.json()).toMatchObject({ rowCount: 10, truncated: false });
  });

  it('Explain answers the plan', async () => {
    const res = await run({ sql: `select * from ${table} where id = 2`, explain: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().columns[0].name).toBe('QUERY PLAN');
    expect(res.json().rows.flat().join('\n')).toMatch(/Scan/);
    const show = await run({ sql: 'show timezone' });
    expect(show.statusCode).toBe(200);
  });
});

describe('POST /v2/query: 400 refusals, nothing changed', () => {
  const refusals: [string, string][] = [
    [`insert into ${table} values (9, 'nine')`, QUERY_MESSAGES.write('INSERT')],
    [`update ${table} set name = 'x'`, QUERY_MESSAGES.write('UPDATE')],
    [`delete from ${table}`, QUERY_MESSAGES.write('DELETE')],
    [`with gone as (delete from ${table} returning *) select * from gone`, QUERY_MESSAGES.write('DELETE')],
    [`explain analyze delete from ${table}`, QUERY_MESSAGES.write('DELETE')],
    [`drop table ${table}`, QUERY_MESSAGES.ddl('DROP TABLE')],
    ['create table qc_new (a int)', QUERY_MESSAGES.ddl('CREATE TABLE')],
    [`alter table ${table} add column x int`, QUERY_MESSAGES.ddl('ALTER TABLE')],
    [`truncate ${table}`, QUERY_MESSAGES.ddl('TRUNCATE')],
    ["set statement_timeout = '1h'", QUERY_MESSAGES.ddl('SET')],
    ['select 1; select 2', QUERY_MESSAGES.multiple],
    [`select 1; delete from ${table}`, QUERY_MESSAGES.multiple],
    [`select * into qc_copy from ${table}`, QUERY_MESSAGES.into],
    [`select * from ${table} for update`, QUERY_MESSAGES.lock],
    ['select pg_terminate_backend(1)', QUERY_MESSAGES.func('pg_terminate_backend')],
    ['select pg_advisory_lock(1)', QUERY_MESSAGES.func('pg_advisory_lock')],
    ['begin', QUERY_MESSAGES.notAllowed('BEGIN')],
    [`copy ${table} to stdout`, QUERY_MESSAGES.notAllowed('COPY')],
    ['   ', QUERY_MESSAGES.empty],
    ['-- only a comment', QUERY_MESSAGES.empty],
  ];

  it.each(refusals)('%s', async (text, message) => {
    const res = await run({ sql: text });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
    expect(await lastAudit()).toMatchObject({ sql: text, outcome: 'refused', rows: null });
  });

  it('names a syntax error', async () => {
    const res = await run({ sql: 'selec 1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(QUERY_MESSAGES.syntax('syntax error at or near "selec"'));
  });

  it('the read-only role stops what the parser lets through (a sequence advanced by a SELECT)', async () => {
    // The role may read the sequence but not advance it; the READ ONLY transaction would refuse it next.
    const res = await run({ sql: `select nextval('${table}_seq')` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(BOUNDARY_MESSAGES.privilege(`permission denied for sequence ${table}_seq`));
    expect(await lastAudit()).toMatchObject({ outcome: 'refused' });
    const [seq] = (await t.database.query<{ is_called: boolean }>(`select is_called from ${table}_seq`)) as {
      is_called: boolean;
    }[];
    expect(seq?.is_called).toBe(false);
  });

  it('left the table as it was', async () => {
    const rows = await t.database.query<{ n: number }>(`select count(*)::int as n from ${table}`);
    expect(rows[0]?.n).toBe(3);
  });

  it('400 for a bad row cap or an unknown cluster', async () => {
    expect((await run({ sql: 'select 1', maxRows: 100_001 })).statusCode).toBe(400);
    expect((await run({ sql: 'select 1', maxRows: 0 })).statusCode).toBe(400);
    const unknown = await run({ cluster: 'nowhere', sql: 'select 1' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe(QUERY_MESSAGES.unknownCluster('nowhere', ['main', 'down']));
  });

  it('503 naming an unreachable cluster, audited', async () => {
    const res = await run({ cluster: 'down', sql: 'select 1' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toContain(QUERY_MESSAGES.unreachable('down'));
    expect(await lastAudit()).toMatchObject({ cluster: 'down', outcome: 'error' });
  });
});

describe('POST /v2/query/csv', () => {
  it('saves the whole result, up to the cap, as a CSV attachment', async () => {
    const res = await api.post('/v2/query/csv', cookie, {
      cluster: 'main',
      sql: "select g, 'a,b' as text from generate_series(1, 2500) g",
      maxRows: 2100,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="query-main-.*\.csv"$/);
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('g,text');
    expect(lines[1]).toBe('1,"a,b"');
    expect(lines).toHaveLength(2101);
    expect(await lastAudit()).toMatchObject({ rows: 2100, outcome: 'ok' });
  });

  it('a refusal is a JSON 400 before any CSV', async () => {
    const res = await api.post('/v2/query/csv', cookie, { cluster: 'main', sql: `delete from ${table}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(QUERY_MESSAGES.write('DELETE'));
  });
});

describe('history, schema and saved queries', () => {
  it('lists the caller’s own runs, newest first, with their outcome', async () => {
    const res = await api.get('/v2/query/history', cookie);
    expect(res.statusCode).toBe(200);
    const history = res.json().queryHistory;
    expect(history.length).toBeGreaterThan(5);
    expect(history[0]).toMatchObject({ cluster: expect.any(String), outcome: expect.any(String) });
    const other = await confirmedRoot(t);
    expect((await api.get('/v2/query/history', other.cookie)).json().queryHistory).toEqual([]);
  });

  it('gives the tables and columns of a cluster for completion', async () => {
    const res = await api.get('/v2/query/schema?cluster=main', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().querySchema.tables[`public.${table}`]).toEqual(['id', 'name']);
  });

  it('creates, lists, updates and deletes the caller’s saved queries', async () => {
    const created = await api.post('/v2/saved-queries', cookie, { name: 'Count', cluster: 'main', sql: 'select 1' });
    expect(created.statusCode).toBe(201);
    const id = created.json().savedQuery.id;
    const updated = await api.put(`/v2/saved-queries/${id}`, cookie, {
      name: 'Count 2',
      cluster: 'main',
      sql: 'select 2',
    });
    expect(updated.json().savedQuery).toMatchObject({ name: 'Count 2', sql: 'select 2' });
    expect((await api.get('/v2/saved-queries', cookie)).json().savedQueries.map((s: { id: number }) => s.id)).toContain(
      id,
    );
    const other = await confirmedRoot(t);
    expect((await api.del(`/v2/saved-queries/${id}`, other.cookie)).statusCode).toBe(404);
    expect((await api.del(`/v2/saved-queries/${id}`, cookie)).statusCode).toBe(200);
    expect((await api.del(`/v2/saved-queries/${id}`, cookie)).statusCode).toBe(404);
  });

  it('400 for a blank name or SQL, or an unknown cluster', async () => {
    expect(
      (await api.post('/v2/saved-queries', cookie, { name: ' ', cluster: 'main', sql: 'select 1' })).statusCode,
    ).toBe(400);
    expect((await api.post('/v2/saved-queries', cookie, { name: 'x', cluster: 'main', sql: ' ' })).statusCode).toBe(
      400,
    );
    expect(
      (await api.post('/v2/saved-queries', cookie, { name: 'x', cluster: 'nope', sql: 'select 1' })).statusCode,
    ).toBe(400);
  });
});
