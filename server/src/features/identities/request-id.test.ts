/**
 * A request's identity survives a retry (issue 27 item 1, decision 0046): the X-Request-Id a client or balancer sends
 * is the usage row's id, so a retry is answered and billed once; another request under a used id is never free.
 */
import { randomUUID } from 'node:crypto';
import { REQUEST_ID_MESSAGES } from '@tessera/common/lookups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, CONSOLE_HEADERS, makeCustomer, signIn, type TestApp } from '../../test/harness';
import { RETRY_WINDOW_MINUTES } from '../usage/metering';
import { load, person } from './test-people';

let t: TestApp;
let cookie: string;
const p = person();
const q = person();
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signIn(t.app, (await makeCustomer(t.database)).email);
  await load(t.database, p);
  await load(t.database, q);
});
afterAll(() => t.app.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, requestId?: string, payload?: string, type?: string) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...CONSOLE_HEADERS,
      cookie,
      ...(requestId === undefined ? {} : { 'x-request-id': requestId }),
      ...(type ? { 'content-type': type } : {}),
    },
    ...(payload === undefined ? {} : { payload }),
  });
const rowsOf = async (requestId: string) =>
  (
    await t.database.query<{ request_id: string }>(
      'select request_id from usage where request_id = $1 or request_id like $2 order by request_id',
      [requestId, `${requestId}~%`],
    )
  ).map((r) => r.request_id);

describe('X-Request-Id', () => {
  it('is the reply’s and the usage row’s id; a retry is answered again and billed once', async () => {
    const id = `haproxy:${randomUUID()}`;
    const first = await call('GET', `/v2/identities/byId?id=${p.id}`, id);
    const retry = await call('GET', `/v2/identities/byId?id=${p.id}`, id);
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    expect(first.headers['x-request-id']).toBe(id);
    expect(first.json().requestId).toBe(id);
    expect(retry.json().identities).toEqual(first.json().identities);
    expect(await rowsOf(id)).toEqual([id]);
  });

  it('answers 409 to another request under a used id, telling nothing of what it asked', async () => {
    const id = randomUUID();
    expect((await call('GET', `/v2/identities/byId?id=${p.id}`, id)).statusCode).toBe(200);
    const other = await call('GET', `/v2/identities/byId?id=${q.id}`, id);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe(REQUEST_ID_MESSAGES.reused(id));
    expect(other.body).not.toContain(q.lastName);
    expect(await rowsOf(id)).toEqual([id]);
  });

  it('answers 409 to a retry that comes after the retry window, saying so (not that the id was used elsewhere)', async () => {
    const id = randomUUID();
    expect((await call('GET', `/v2/identities/byId?id=${p.id}`, id)).statusCode).toBe(200);
    // The first call, made a window and a minute ago (its month moved with it, should that cross one).
    await t.database.query(
      `update usage set at = at - make_interval(mins => $2),
         month = (date_trunc('month', (at - make_interval(mins => $2)) at time zone 'UTC'))::date
       where request_id = $1`,
      [id, RETRY_WINDOW_MINUTES + 1],
    );
    const late = await call('GET', `/v2/identities/byId?id=${p.id}`, id);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe(REQUEST_ID_MESSAGES.expired(id, RETRY_WINDOW_MINUTES));
    expect(await rowsOf(id)).toEqual([id]);
  });

  it('is its caller’s: another user sending the same id is answered and billed apart, never refused', async () => {
    const id = `shared-${randomUUID()}`;
    expect((await call('GET', `/v2/identities/byId?id=${p.id}`, id)).statusCode).toBe(200);
    const otherCookie = await signIn(t.app, (await makeCustomer(t.database)).email);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/v2/identities/byId?id=${q.id}`,
      headers: { ...CONSOLE_HEADERS, cookie: otherCookie, 'x-request-id': id },
    });
    expect(theirs.statusCode).toBe(200);
    const billed = await t.database.query<{ n: number }>(
      'select count(distinct user_id)::int as n from usage where request_id = $1',
      [id],
    );
    expect(billed).toEqual([{ n: 2 }]);
  });

  it('tells a POST retry by its body', async () => {
    const id = randomUUID();
    const body = JSON.stringify({ inputs: [{ id: String(p.id) }] });
    expect((await call('POST', '/v2/identities/byId', id, body)).statusCode).toBe(200);
    expect((await call('POST', '/v2/identities/byId', id, body)).statusCode).toBe(200);
    const other = await call('POST', '/v2/identities/byId', id, JSON.stringify({ inputs: [{ id: String(q.id) }] }));
    expect(other.statusCode).toBe(409);
    expect(other.body).not.toContain(q.lastName);
    expect(await rowsOf(id)).toEqual([id]);
  });

  it('bills a stream answered under a used id under an id of its own, never free', async () => {
    const id = randomUUID();
    expect((await call('PUT', '/v2/identities/byId', id, `id\r\n${p.id}\r\n`, 'text/csv')).statusCode).toBe(200);
    // The same stream again: a retry, billed once.
    expect((await call('PUT', '/v2/identities/byId', id, `id\r\n${p.id}\r\n`, 'text/csv')).statusCode).toBe(200);
    expect(await rowsOf(id)).toEqual([id]);
    const other = await call('PUT', '/v2/identities/byId', id, `id\r\n${q.id}\r\n`, 'text/csv');
    expect(other.statusCode).toBe(200);
    const rows = await rowsOf(id);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(new RegExp(`^${id}~[0-9a-f-]{36}$`));
  });

  it('is made by the server when none is sent, and refused when malformed', async () => {
    const made = await call('GET', `/v2/identities/byId?id=${p.id}`);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    for (const bad of ['', 'has space', 'x'.repeat(129), 'quote"d', 'semi;colon']) {
      const res = await call('GET', `/v2/identities/byId?id=${p.id}`, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().fields).toEqual([{ path: 'headers.x-request-id', message: REQUEST_ID_MESSAGES.malformed }]);
    }
  });
});
