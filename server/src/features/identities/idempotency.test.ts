/** Idempotency-Key on POST and PUT lookups: a repeat is replayed and not charged; another request with it is refused. */
import { IDEMPOTENCY_MESSAGES } from '@tessera/common/lookups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, CONSOLE_HEADERS, makeCustomer, signIn, type TestApp } from '../../test/harness';
import { keptRequestId } from './idempotency';
import { load, person } from './test-people';

let t: TestApp;
let cookie: string;
let userId: number;
const p = person();
const email = p.emails[0]!.address;
beforeAll(async () => {
  t = await buildTestApp();
  const customer = await makeCustomer(t.database);
  userId = customer.id;
  cookie = await signIn(t.app, customer.email);
  await load(t.database, p);
});
afterAll(() => t.app.close());

const post = (key: string | undefined, body: unknown, as = cookie, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/identities/byEmail',
    headers: { ...CONSOLE_HEADERS, cookie: as, ...(key === undefined ? {} : { 'idempotency-key': key }), ...headers },
    payload: body as object,
  });
const put = (key: string, csv: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'PUT',
    url: '/v2/identities/byEmail',
    headers: { ...CONSOLE_HEADERS, 'content-type': 'text/csv', cookie, 'idempotency-key': key, ...headers },
    payload: csv,
  });
const usageRows = async (requestId: unknown) =>
  (await t.database.query('select 1 from usage where request_id = $1', [requestId])).length;
const fresh = () => `k-${Math.random().toString(36).slice(2)}`;

describe('Idempotency-Key', () => {
  it('replays a repeated POST exactly, without running or charging it again', async () => {
    const key = fresh();
    const first = await post(key, { inputs: [email] });
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const own = `replay-${fresh()}`;
    const again = await post(key, { inputs: [email] }, cookie, { 'x-request-id': own });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    // The kept reply whole: its body's requestId and its X-Request-Id are those of the request that ran and was charged.
    expect(again.json().requestId).toBe(first.headers['x-request-id']);
    expect(again.headers['x-request-id']).toBe(again.json().requestId);
    expect(await usageRows(first.headers['x-request-id'])).toBe(1);
    expect(await usageRows(own)).toBe(0);
  });

  it('replays the same metadata, and tells a request with other metadata from it', async () => {
    const key = fresh();
    const inputs = [{ email, metadata: { customerId: 'c-9', row: 1 } }];
    const first = await post(key, { inputs });
    expect(first.json().results[0].metadata).toEqual({ customerId: 'c-9', row: 1 });
    const again = await post(key, { inputs });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().results[0].metadata).toEqual({ customerId: 'c-9', row: 1 });
    expect(again.body).toBe(first.body);
    expect(again.headers['x-request-id']).toBe(first.json().requestId);
    const other = await post(key, { inputs: [{ email, metadata: { customerId: 'c-10', row: 1 } }] });
    expect([other.statusCode, other.json().error]).toEqual([422, IDEMPOTENCY_MESSAGES.otherRequest]);
  });

  it('refuses the same key with another request (422) and while the first still runs (409)', async () => {
    const key = fresh();
    expect((await post(key, { inputs: [email] })).statusCode).toBe(200);
    const other = await post(key, { inputs: [email, 'someone@else.example'] });
    expect([other.statusCode, other.json().error]).toEqual([422, IDEMPOTENCY_MESSAGES.otherRequest]);

    const running = fresh();
    await t.database.query(`insert into idempotency_keys (owner, key, state) values ($1, $2, 'running')`, [
      `user:${userId}`,
      running,
    ]);
    const busy = await post(running, { inputs: [email] });
    expect([busy.statusCode, busy.json().error]).toEqual([409, IDEMPOTENCY_MESSAGES.running]);
  });

  it('runs afresh once a key is past its 24 hours, or its first request died an hour ago', async () => {
    const old = fresh();
    const stale = fresh();
    await t.database.query(
      `insert into idempotency_keys (owner, key, request_hash, state, status, created_at) values
        ($1, $2, 'another request', 'done', 200, now() - interval '25 hours'),
        ($1, $3, null, 'running', null, now() - interval '2 hours')`,
      [`user:${userId}`, old, stale],
    );
    for (const key of [old, stale]) {
      const res = await post(key, { inputs: [email] });
      expect(res.statusCode, key).toBe(200);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
  });

  it('keeps keys apart by who sent them', async () => {
    const key = fresh();
    expect((await post(key, { inputs: [email] })).statusCode).toBe(200);
    const someoneElse = await signIn(t.app, (await makeCustomer(t.database)).email);
    const theirs = await post(key, { inputs: ['x@y.example'] }, someoneElse);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keeps nothing of a request that failed, and refuses a malformed key', async () => {
    const key = fresh();
    expect((await post(key, { inputs: ['not an email'] })).statusCode).toBe(400);
    expect((await post(key, { inputs: [email] })).statusCode).toBe(200);
    for (const bad of ['', 'x'.repeat(256), 'spaces are not allowed']) {
      const res = await post(bad, { inputs: [email] });
      expect([res.statusCode, res.json().error], JSON.stringify(bad)).toEqual([400, IDEMPOTENCY_MESSAGES.key]);
    }
  });

  it('replays a streamed PUT once its body is read and found the same', async () => {
    const key = fresh();
    const csv = `email\n${email}\nnobody@nowhere.example\n`;
    const first = await put(key, csv);
    expect(first.statusCode).toBe(200);
    const own = `replay-${fresh()}`;
    const again = await put(key, csv, { 'x-request-id': own });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(again.headers['content-disposition']).toBe(first.headers['content-disposition']);
    expect(again.headers['x-request-id']).toBe(first.headers['x-request-id']);
    expect(again.body).toBe(first.body);
    expect(await usageRows(own)).toBe(0);
    const other = await put(key, `email\n${email}\n`);
    expect([other.statusCode, other.json().error]).toEqual([422, IDEMPOTENCY_MESSAGES.otherRequest]);
  });
});

describe('keptRequestId', () => {
  it('reads the id of the request whose reply is kept from its JSON or its CSV file name, else none', () => {
    const json = (text: string) => ({ body: Buffer.from(text), content_disposition: null });
    expect(keptRequestId(json('{"requestId":"abc-1","results":[]}'))).toBe('abc-1');
    expect(
      keptRequestId({
        body: Buffer.from('email\r\n'),
        content_disposition: 'attachment; filename="byEmail-x.y:z.csv"',
      }),
    ).toBe('x.y:z');
    expect(keptRequestId(json('{"results":[],"requestId":"late"}'))).toBeNull();
    expect(keptRequestId(json('{"requestId":"not valid!"}'))).toBeNull();
    expect(keptRequestId({ body: null, content_disposition: null })).toBeNull();
  });
});
