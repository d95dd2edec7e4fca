/**
 * The cross-site check guards console (cookie) calls, not the key API (issue 28 finding 13): a state-changing call
 * to a path meant for key callers, made without a session cookie, goes on to its own authentication, which answers
 * 401 with WWW-Authenticate when no key is given, as docs/api-keys.md says. With a session cookie it is a console
 * call and needs X-Requested-With (and our Origin) as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../test/console-client';
import { buildTestApp, CONSOLE_HEADERS, makeCustomer, signIn, type TestApp } from '../test/harness';

const BEARER_REALM = 'Bearer realm="tessera"';
const NO_HEADER = 'This call must be made by the console (missing X-Requested-With header).';
const LOOKUP = '/v2/identities/byEmail';
const body = { inputs: ['nobody@tessera.test'] };

let t: TestApp;
let cookie: string;
let bearer: string;
beforeAll(async () => {
  t = await buildTestApp();
  const customer = await makeCustomer(t.database);
  cookie = await signIn(t.app, customer.email);
  const made = await consoleClient(() => t.app).post('/v2/keys', cookie, { name: 'origin' });
  const key = Object.values(made.json().keys)[0] as { id: string; secret: string };
  bearer = `Bearer ${key.id}${key.secret}`;
});
afterAll(() => t.app.close());

const post = (url: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: body });

describe('state-changing calls to the key API', () => {
  it('answers 401 with WWW-Authenticate when no credentials come, whatever else the call carries', async () => {
    for (const url of [LOOKUP, '/v1/identities/byEmail']) {
      for (const headers of [
        {} as Record<string, string>,
        { 'x-api-key': 'k7Qm0000000000000000000000000000000000000000000' },
      ]) {
        const res = await post(url, headers);
        expect([res.statusCode, res.headers['www-authenticate']]).toEqual([401, BEARER_REALM]);
        expect(res.json()).toMatchObject({ code: 'unauthorized' });
      }
    }
  });

  it('answers 401 for a bad key, and serves a good one without the console’s header', async () => {
    const bad = await post(LOOKUP, { authorization: `Bearer ${'x'.repeat(48)}` });
    expect([bad.statusCode, bad.headers['www-authenticate']]).toEqual([401, BEARER_REALM]);
    expect((await post(LOOKUP, { authorization: bearer })).statusCode).toBe(200);
  });

  it('answers 401 on every path the API document offers to keys', async () => {
    const doc = (await t.app.inject('/v2/openapi.json')).json() as {
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    };
    const offered: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (method === 'get' || !operation.security?.some((s) => 'apiKey' in s)) continue;
        const res = await t.app.inject({ method: method.toUpperCase() as 'POST', url: path, payload: body });
        offered.push(`${method} ${path} ${res.statusCode} ${res.headers['www-authenticate']}`);
      }
    }
    expect(offered.length).toBeGreaterThan(0);
    for (const line of offered) expect(line).toMatch(new RegExp(` 401 ${BEARER_REALM}$`));
  });
});

describe('console calls', () => {
  it('still refuse a cookie-authenticated call without X-Requested-With, on the key API too', async () => {
    const res = await post(LOOKUP, { cookie });
    expect([res.statusCode, res.json().error]).toEqual([403, NO_HEADER]);
    const foreign = await post(LOOKUP, { ...CONSOLE_HEADERS, cookie, origin: 'https://evil.example' });
    expect([foreign.statusCode, foreign.json().error]).toEqual([403, 'Cross-site request refused.']);
    expect((await post(LOOKUP, { ...CONSOLE_HEADERS, cookie })).statusCode).toBe(200);
  });

  it('still refuse the console’s own anonymous calls without X-Requested-With (sign-in)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a@b.example', password: 'x' },
    });
    expect([res.statusCode, res.json().error]).toEqual([403, NO_HEADER]);
  });
});
