/**
 * Usage for API-key callers (issue 31): a key reads its own calls on /v2/usage, an administrator's key its
 * organization's; a lookup's reply carries what it cost and what is left of the month's allowance.
 */
import { TEST_KEY_PREFIX } from '@tessera/common/keys';
import { USAGE_MESSAGES } from '@tessera/common/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';

let t: TestApp;
const api = consoleClient(() => t.app);
const someone = person();
const email = someone.emails[0]!.address;
let userCookie: string;
let adminCookie: string;
let otherCookie: string;
let organizationId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const org = await makeOrganization(t.database);
  organizationId = org.id;
  // $0.001 a request, $0.01 an identity; $5 a month.
  await makeContract(t.database, org.id, { monthlyLimit: 5 });
  userCookie = await signIn(t.app, (await makeUser(t.database, 'user', org.id)).email);
  adminCookie = await signIn(t.app, (await makeUser(t.database, 'admin', org.id)).email);
  const other = await makeOrganization(t.database);
  await makeContract(t.database, other.id);
  otherCookie = await signIn(t.app, (await makeUser(t.database, 'user', other.id)).email);
  await load(t.database, someone);
});
afterAll(() => t.app.close());

interface Key {
  id: string;
  secret: string;
  mode: string;
}
async function newKey(cookie: string, body: Record<string, unknown> = {}): Promise<Key> {
  const res = await api.post('/v2/keys', cookie, { name: 'k', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return Object.values(res.json().keys)[0] as Key;
}
const bearer = (k: Key) => `Bearer ${k.mode === 'test' ? TEST_KEY_PREFIX : ''}${k.id}${k.secret}`;
const lookup = (k: Key) =>
  t.app.inject({
    method: 'GET',
    url: `/v2/identities/byEmail?email=${encodeURIComponent(email)}`,
    headers: { authorization: bearer(k) },
  });
const from = new Date(Date.now() - 3600_000).toISOString();
const to = new Date(Date.now() + 3600_000).toISOString();
const calls = (authorization: string, extra = '') =>
  t.app.inject({
    method: 'GET',
    url: `/v2/usage/calls?from=${from}&to=${to}&pageSize=100${extra}`,
    headers: { authorization },
  });

describe('a lookup reply', () => {
  it('carries its cost and what is left of the monthly limit, as the usage log has them', async () => {
    const key = await newKey(userCookie);
    const first = await lookup(key);
    expect(first.statusCode, first.body).toBe(200);
    // One request and one identity: $0.001 + $0.01.
    expect(first.headers['x-call-cost']).toBe('0.011000');
    const [row] = await t.database.query<{ cost: string }>('select cost::text from usage where request_id = $1', [
      first.headers['x-request-id'],
    ]);
    expect(Number(row!.cost)).toBeCloseTo(0.011, 9);
    const left = Number(first.headers['x-monthly-allowance-remaining']);
    expect(left).toBeLessThanOrEqual(5 - 0.011 + 1e-9);
    const second = await lookup(key);
    expect(Number(second.headers['x-monthly-allowance-remaining'])).toBeCloseTo(left - 0.011, 6);
  });

  it('of a test key costs nothing and names no allowance; an organization without a monthly limit names none', async () => {
    const test = await newKey(userCookie, { mode: 'test' });
    const res = await lookup(test);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-call-cost']).toBe('0.000000');
    expect(res.headers['x-monthly-allowance-remaining']).toBeUndefined();
    const unlimited = await newKey(otherCookie);
    const other = await lookup(unlimited);
    expect(other.headers['x-call-cost']).toBe('0.011000');
    expect(other.headers['x-monthly-allowance-remaining']).toBeUndefined();
  });
});

describe('/v2/usage with an API key', () => {
  it("reads the key's own calls, not its user's other keys'; an administrator's key reads the organization's", async () => {
    const mine = await newKey(userCookie);
    const sibling = await newKey(userCookie);
    const adminKey = await newKey(adminCookie);
    const made = [(await lookup(mine)).headers['x-request-id'], (await lookup(mine)).headers['x-request-id']];
    await lookup(sibling);
    const own = await calls(bearer(mine));
    expect(own.statusCode, own.body).toBe(200);
    const listed = own.json().usageCalls.calls as { keyId: string }[];
    expect(listed.length).toBe(made.length);
    expect(new Set(listed.map((c) => c.keyId))).toEqual(new Set([mine.id]));
    const org = await calls(bearer(adminKey));
    expect(org.statusCode).toBe(200);
    const keys = new Set((org.json().usageCalls.calls as { keyId: string }[]).map((c) => c.keyId));
    expect(keys.has(mine.id) && keys.has(sibling.id)).toBe(true);
    const totals = await t.app.inject({
      method: 'GET',
      url: `/v2/usage/totals?from=${from}&to=${to}`,
      headers: { authorization: bearer(mine) },
    });
    expect(totals.statusCode, totals.body).toBe(200);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/v2/usage/calls.csv?from=${from}&to=${to}`,
      headers: { authorization: bearer(mine) },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\n').filter((l) => l.includes(mine.id)).length).toBe(made.length);
  });

  it("refuses another key's, user's or organization's usage with 403 naming it, and a bad key with 401", async () => {
    const mine = await newKey(userCookie);
    const sibling = await newKey(userCookie);
    for (const [extra, field] of [
      [`&keyId=${sibling.id}`, 'keyId'],
      ['&userId=1', 'userId'],
      [`&organizationId=${organizationId + 1000}`, 'organizationId'],
    ] as const) {
      const res = await calls(bearer(mine), extra);
      expect(res.statusCode, extra).toBe(403);
      expect(res.json().error).toBe(USAGE_MESSAGES.outOfScope[field]);
    }
    const wrong = await calls(`Bearer ${mine.id}${'x'.repeat(32)}`);
    expect(wrong.statusCode).toBe(401);
    const none = await t.app.inject({ method: 'GET', url: `/v2/usage/calls?from=${from}&to=${to}` });
    expect(none.statusCode).toBe(401);
    const inUrl = await t.app.inject({
      method: 'GET',
      url: `/v2/usage/calls?from=${from}&to=${to}&key=${mine.id}${mine.secret}`,
    });
    expect(inUrl.statusCode).toBe(400);
  });
});
