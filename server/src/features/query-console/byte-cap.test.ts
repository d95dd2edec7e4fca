/**
 * Issue 28 finding 3: results had a row cap but no byte cap (one query took the server to 2 GB). A result now
 * stops at RESULT_MAX_BYTES of row text, made and held by the database's run(), never the server: the reply says
 * it was cut and why, the CSV export says so in its headers, and the audit records it. Rows keep exactly the text
 * PostgreSQL writes, though they come back from run() as record text.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type TestApp } from '../../test/harness';
import { BOUNDARY_MESSAGES, RESULT_MAX_BYTES } from './boundary';
import { rowCells } from './row-literal';
import { confirmedRoot } from './test-support';

let t: TestApp;
const api = consoleClient(() => t.app);
let cookie: string;
let rootId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const signedIn = await confirmedRoot(t);
  cookie = signedIn.cookie;
  rootId = signedIn.root.id;
});
afterAll(() => t.app.close());

async function lastAudit() {
  const [row] = await t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.actorId, rootId), eq(auditLog.action, 'query.run')))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row!.detail as Record<string, unknown>;
}

// 40 rows of a million characters: 40 MB, more than twice the cap. Each row's text is `(xxx…)`, 1,000,002 bytes.
const BIG = "select g, repeat('x', 1000000) as x from generate_series(1, 40) g";
const FITTING = Math.floor(RESULT_MAX_BYTES / 1_000_004);

describe('the byte cap', () => {
  it('cuts a result past it and says so', async () => {
    const res = await api.post('/v2/query', cookie, { cluster: 'main', sql: BIG });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      rowCount: FITTING,
      truncated: true,
      cut: 'bytes',
      notice: BOUNDARY_MESSAGES.cutBytes(RESULT_MAX_BYTES),
    });
    expect(body.rows.map((r: string[]) => r[0])).toEqual(Array.from({ length: FITTING }, (_, i) => String(i + 1)));
    expect(body.rows[0][1]).toHaveLength(1_000_000);
    expect(await lastAudit()).toMatchObject({ outcome: 'ok', rows: FITTING, cut: 'bytes' });
  });

  it('cuts a CSV export past it, saying so in its headers', async () => {
    const res = await api.post('/v2/query/csv', cookie, { cluster: 'main', sql: BIG });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-query-truncated']).toBe('bytes');
    expect(res.headers['x-query-notice']).toBe(BOUNDARY_MESSAGES.cutBytes(RESULT_MAX_BYTES));
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('g,x');
    expect(lines).toHaveLength(FITTING + 1);
  });

  it('the row cap says so too; a result under both caps says nothing', async () => {
    const capped = await api.post('/v2/query', cookie, { cluster: 'main', sql: BIG, maxRows: 3 });
    expect(capped.json()).toMatchObject({
      rowCount: 3,
      truncated: true,
      cut: 'rows',
      notice: 'The result was cut at the row cap of 3.',
    });
    const csv = await api.post('/v2/query/csv', cookie, { cluster: 'main', sql: BIG, maxRows: 3 });
    expect(csv.headers['x-query-truncated']).toBe('rows');
    const whole = await api.post('/v2/query', cookie, { cluster: 'main', sql: 'select 1 as one' });
    expect(whole.json()).toEqual({
      columns: [{ name: 'one', type: 'int4' }],
      rows: [['1']],
      rowCount: 1,
      truncated: false,
      ms: expect.any(Number),
    });
  });
});

describe('rows keep the text PostgreSQL writes', () => {
  it('quotes, commas, backslashes, spaces, empty strings, NULL, arrays and records', async () => {
    const res = await api.post('/v2/query', cookie, {
      cluster: 'main',
      sql: `select 'a,b' a, 'q"x' b, E'back\\\\slash' c, '' d, null::text e, array['x y', null] f, row(1, 'z') g,
                   ' (lead)' h, true i, 1.50::numeric(4,2) j, '{"k": [1, "v"]}'::jsonb k, null::int l`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().rows).toEqual([
      ['a,b', 'q"x', 'back\\slash', '', null, '{"x y",NULL}', '(1,z)', ' (lead)', 't', '1.50', '{"k": [1, "v"]}', null],
    ]);
    const one = await api.post('/v2/query', cookie, { cluster: 'main', sql: 'select null::text as only' });
    expect(one.json().rows).toEqual([[null]]);
  });

  it('reads record text cell by cell (unit)', () => {
    expect(rowCells('(1,"a,b",,"","q""x","b\\\\s")', 6)).toEqual(['1', 'a,b', null, '', 'q"x', 'b\\s']);
    expect(rowCells('()', 1)).toEqual([null]);
    expect(rowCells('()', 0)).toEqual([]);
    expect(rowCells('(,)', 2)).toEqual([null, null]);
    expect(() => rowCells('(1,2)', 3)).toThrow(/2 cells for 3 columns/);
  });
});
