/**
 * The calls of /v2/usage read by people (issue 32, item 4): each call names its user, organization and key, joined
 * in the calls query and only where the viewer may see them (a user who has since moved to another organization, or
 * a key now someone else's, stays an id to a customer); the calls filter by key; each carries its HTTP status; a
 * template preview of a real identity is listed, filtered and exported as a template preview, not as `/byId`.
 */
import {
  CALL_METRICS,
  emptyMetrics,
  TEMPLATE_PREVIEW_USAGE_PATH,
  USAGE_MESSAGES,
  type UsageCall,
} from '@tessera/common/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type Member, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { type UsageEvent, writeUsage } from '../usage/metering';

let t: TestApp;
const api = consoleClient(() => t.app);
let orgA: { id: number; name: string };
let orgB: { id: number; name: string };
let ada: Member;
let admin: Member;
let mover: Member;
let outsider: Member;
const cookies: Record<string, string> = {};
let adaKey: { id: string; secret: string };
let adminKey: { id: string; secret: string };
let outsiderKey: string;

const FROM = '2026-11-01T00:00:00Z';
const TO = '2026-11-30T00:00:00Z';
let n = 0;

async function call(at: string, who: Pick<UsageEvent, 'userId' | 'organizationId' | 'keyId'>, extra = {}) {
  const event: UsageEvent = {
    requestId: `names-${process.pid}-${n++}`,
    ...who,
    method: 'GET',
    path: '/byEmail',
    status: 200,
    metrics: { ...emptyMetrics(), inputs: 1, identities: 1 },
    costMicros: 1000,
    ...extra,
  };
  await writeUsage(t.database, [event], new Date(at));
}

async function newKey(cookie: string, name: string) {
  const res = await api.post('/v2/keys', cookie, { name });
  expect(res.statusCode, res.body).toBe(201);
  return Object.values(res.json().keys)[0] as { id: string; secret: string };
}

const callsOf = async (cookie: string, extra = ''): Promise<UsageCall[]> => {
  const res = await api.get(`/v2/usage/calls?from=${FROM}&to=${TO}&sort=at${extra}`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().usageCalls.calls;
};

beforeAll(async () => {
  t = await buildTestApp();
  orgA = await makeOrganization(t.database, 'Acme Analytics');
  orgB = await makeOrganization(t.database, 'Beta Brokers');
  ada = await makeUser(t.database, 'user', orgA.id);
  admin = await makeUser(t.database, 'admin', orgA.id);
  mover = await makeUser(t.database, 'user', orgA.id);
  outsider = await makeUser(t.database, 'user', orgB.id);
  const superUser = await makeUser(t.database, 'super', orgB.id);
  await t.database.query(`update users set name = 'Ada Lovelace' where id = $1`, [ada.id]);
  await t.database.query(`update users set name = 'Mo Mover' where id = $1`, [mover.id]);
  await t.database.query(`update users set name = 'Otto Outsider' where id = $1`, [outsider.id]);
  for (const [name, m] of Object.entries({ ada, admin, mover, outsider, superUser })) {
    cookies[name] = await signIn(t.app, m.email);
  }
  adaKey = await newKey(cookies.ada!, 'Nightly sync');
  adminKey = await newKey(cookies.admin!, 'Admin reports');
  const moverKey = await newKey(cookies.mover!, 'Mover key');
  outsiderKey = (await newKey(cookies.outsider!, 'Their key')).id;

  await call('2026-11-02T10:00:00Z', { userId: ada.id, organizationId: orgA.id, keyId: adaKey.id });
  await call('2026-11-03T10:00:00Z', { userId: ada.id, organizationId: orgA.id, keyId: null });
  await call(
    '2026-11-04T10:00:00Z',
    { userId: ada.id, organizationId: orgA.id, keyId: adaKey.id },
    { status: 422, path: '/byPii', method: 'POST' },
  );
  await call(
    '2026-11-05T10:00:00Z',
    { userId: ada.id, organizationId: orgA.id, keyId: null },
    { method: 'POST', path: TEMPLATE_PREVIEW_USAGE_PATH, metrics: { ...emptyMetrics(), inputs: 1, identities: 1 } },
  );
  await call('2026-11-06T10:00:00Z', { userId: mover.id, organizationId: orgA.id, keyId: moverKey.id });
  await call('2026-11-07T10:00:00Z', { userId: outsider.id, organizationId: orgB.id, keyId: outsiderKey });
  // Mo has moved to Beta Brokers since, with the key: Acme's calls keep Mo's id, but Acme no longer sees the names.
  await t.database.query('update users set organization_id = $2 where id = $1', [mover.id, orgB.id]);
  await t.database.query('update api_keys set organization_id = $2 where id = $1', [moverKey.id, orgB.id]);
});
afterAll(() => t.app.close());

describe('names on the calls (issue 32)', () => {
  it("names an administrator's organization's users, organization and keys", async () => {
    const calls = await callsOf(cookies.admin!);
    expect(calls.map((c) => [c.userName, c.organizationName, c.keyName])).toEqual([
      ['Ada Lovelace', 'Acme Analytics', 'Nightly sync'],
      ['Ada Lovelace', 'Acme Analytics', null],
      ['Ada Lovelace', 'Acme Analytics', 'Nightly sync'],
      ['Ada Lovelace', 'Acme Analytics', null],
      // Mo and Mo's key are Beta's now: the call stays Acme's, its user and key only ids.
      [null, 'Acme Analytics', null],
    ]);
    expect(calls[4]).toMatchObject({ userId: mover.id, keyId: expect.any(String) });
  });

  it('names nobody of another organization to a customer, whatever they filter', async () => {
    const own = await callsOf(cookies.outsider!);
    expect(own.map((c) => [c.userName, c.organizationName, c.keyName])).toEqual([
      ['Otto Outsider', 'Beta Brokers', 'Their key'],
    ]);
    const asked = await api.get(`/v2/usage/calls?from=${FROM}&to=${TO}&organizationId=${orgA.id}`, cookies.outsider!);
    expect(asked.statusCode).toBe(403);
    expect(asked.json().error).toBe(USAGE_MESSAGES.outOfScope.organizationId);
    const body = JSON.stringify(own);
    for (const hidden of ['Ada Lovelace', 'Acme Analytics', 'Nightly sync', 'Mo Mover']) {
      expect(body).not.toContain(hidden);
    }
  });

  it('names a user their own calls, and staff every call', async () => {
    const mine = await callsOf(cookies.ada!);
    expect(new Set(mine.map((c) => c.userName))).toEqual(new Set(['Ada Lovelace']));
    expect(mine.map((c) => c.keyName)).toEqual(['Nightly sync', null, 'Nightly sync', null]);
    const all = await callsOf(cookies.superUser!, `&organizationId=${orgA.id}`);
    expect(all.map((c) => c.userName)).toEqual([
      'Ada Lovelace',
      'Ada Lovelace',
      'Ada Lovelace',
      'Ada Lovelace',
      'Mo Mover',
    ]);
    expect(all.at(-1)?.keyName).toBe('Mover key');
  });

  it('names them for an API key too: its own calls, or an administrator key its organization', async () => {
    const read = (key: { id: string; secret: string }) =>
      t.app.inject({
        method: 'GET',
        url: `/v2/usage/calls?from=${FROM}&to=${TO}&sort=at`,
        headers: { authorization: `Bearer ${key.id}${key.secret}` },
      });
    const own = (await read(adaKey)).json().usageCalls.calls as UsageCall[];
    expect(own.map((c) => [c.userName, c.organizationName, c.keyName])).toEqual([
      ['Ada Lovelace', 'Acme Analytics', 'Nightly sync'],
      ['Ada Lovelace', 'Acme Analytics', 'Nightly sync'],
    ]);
    const organization = (await read(adminKey)).json().usageCalls.calls as UsageCall[];
    expect(organization.map((c) => c.userName)).toEqual([
      'Ada Lovelace',
      'Ada Lovelace',
      'Ada Lovelace',
      'Ada Lovelace',
      null,
    ]);
  });
});

describe('key filter, status and the template preview (issue 32)', () => {
  it("filters by key, and refuses a key outside the viewer's reach", async () => {
    const byKey = await callsOf(cookies.admin!, `&keyId=${adaKey.id}`);
    expect(byKey.map((c) => c.keyId)).toEqual([adaKey.id, adaKey.id]);
    expect(byKey.map((c) => c.keyName)).toEqual(['Nightly sync', 'Nightly sync']);
    const theirs = await api.get(`/v2/usage/calls?from=${FROM}&to=${TO}&keyId=${outsiderKey}`, cookies.admin!);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().error).toBe(USAGE_MESSAGES.outOfScope.keyId);
  });

  it('carries each call’s HTTP status', async () => {
    const calls = await callsOf(cookies.ada!);
    expect(calls.map((c) => c.status)).toEqual([200, 200, 422, 200]);
  });

  it('lists, filters and exports a template preview as one', async () => {
    const previews = await callsOf(cookies.ada!, `&path=${encodeURIComponent(TEMPLATE_PREVIEW_USAGE_PATH)}`);
    expect(previews).toHaveLength(1);
    expect(previews[0]).toMatchObject({ method: 'POST', path: TEMPLATE_PREVIEW_USAGE_PATH, identities: 1 });
    const csv = await api.get(`/v2/usage/calls.csv?from=${FROM}&to=${TO}&sort=at`, cookies.ada!);
    expect(csv.statusCode, csv.body).toBe(200);
    const [header, ...rows] = csv.body.trimEnd().split('\r\n');
    const columns = header!.split(',');
    expect(columns.slice(0, 7)).toEqual(['at', 'userId', 'organizationId', 'keyId', 'method', 'path', 'status']);
    expect(columns.slice(7, 7 + CALL_METRICS.length)).toEqual([...CALL_METRICS]);
    expect(columns.slice(-4)).toEqual(['userName', 'organizationName', 'keyName', 'call']);
    const last = (row: string) => row.split(',').slice(-4);
    expect(rows.map(last)).toEqual([
      ['Ada Lovelace', 'Acme Analytics', 'Nightly sync', 'GET /byEmail'],
      ['Ada Lovelace', 'Acme Analytics', '', 'GET /byEmail'],
      ['Ada Lovelace', 'Acme Analytics', 'Nightly sync', 'POST /byPii'],
      ['Ada Lovelace', 'Acme Analytics', '', 'Template preview'],
    ]);
  });

  it('a bad path filter still answers 400 naming it', async () => {
    const res = await api.get(`/v2/usage/calls?from=${FROM}&to=${TO}&path=/byNothing`, cookies.ada!);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].path).toBe('querystring.path');
  });
});
