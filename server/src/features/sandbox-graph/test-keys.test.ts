/**
 * Test keys and the sandbox (issue 31): a test key answers from the fixed synthetic set with the live path's
 * endpoints, templates and errors, free and unmetered but rate-limited, and never reaches a real person; a live key
 * never reaches the sandbox.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { KEY_MESSAGES, TEST_KEY_PREFIX, TEST_KEY_RATE_LIMIT } from '@tessera/common/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';
import { ensureSandboxGraph, SANDBOX_FIRST_ID, SANDBOX_PEOPLE, SANDBOX_SCHEMA, sandboxRecords } from './graph';

let t: TestApp;
let cookie: string;
let unpaidCookie: string;
const api = consoleClient(() => t.app);
const real = person();
const realEmail = real.emails[0]!.address;
/** A sandbox person with an e-mail, a device and a vehicle, as the generator makes them. */
const sample = [...sandboxRecords()].find((r) => r.emails?.length && r.devices?.length && r.vehicles?.length)!;
const sampleEmail = sample.emails![0]!.address;

beforeAll(async () => {
  t = await buildTestApp();
  const org = await makeOrganization(t.database);
  await makeContract(t.database, org.id);
  cookie = await signIn(t.app, (await makeUser(t.database, 'user', org.id)).email);
  // An organization with no contract: live calls answer 402, test calls are free.
  const unpaid = await makeOrganization(t.database);
  unpaidCookie = await signIn(t.app, (await makeUser(t.database, 'user', unpaid.id)).email);
  await load(t.database, real);
});
afterAll(() => t.app.close());

interface NewKey {
  id: string;
  secret: string;
  mode: string;
}

async function newKey(body: Record<string, unknown> = {}, as = cookie): Promise<NewKey> {
  const res = await api.post('/v2/keys', as, { name: 'a key', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return Object.values(res.json().keys)[0] as NewKey;
}

const bearer = (key: NewKey) => `Bearer ${key.mode === 'test' ? TEST_KEY_PREFIX : ''}${key.id}${key.secret}`;

const get = (authorization: string, url: string) => t.app.inject({ method: 'GET', url, headers: { authorization } });
const byEmail = (authorization: string, email: string) =>
  get(authorization, `/v2/identities/byEmail?email=${encodeURIComponent(email)}`);
const ids = (res: { json(): { identities: { id: number }[] } }) => res.json().identities.map((i) => i.id);

async function usageRows(requestId: unknown): Promise<number> {
  const rows = await t.database.query<{ n: number }>('select count(*)::int as n from usage where request_id = $1', [
    requestId,
  ]);
  return rows[0]!.n;
}

describe('the sandbox graph', () => {
  it('is loaded once, whole, in a schema of its own, with ids above any real graph', async () => {
    await ensureSandboxGraph(t.database);
    expect(await ensureSandboxGraph(t.database)).toBe(false);
    const [row] = await t.database.query<{ n: number; low: string; high: string }>(
      `select count(*)::int as n, min(id)::text as low, max(id)::text as high from ${SANDBOX_SCHEMA}.people`,
    );
    expect(row).toEqual({
      n: SANDBOX_PEOPLE,
      low: String(SANDBOX_FIRST_ID),
      high: String(SANDBOX_FIRST_ID + SANDBOX_PEOPLE - 1),
    });
    const [real] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from public.people where id >= $1',
      [SANDBOX_FIRST_ID],
    );
    expect(real!.n).toBe(0);
  });

  it('has every table of the identity graph, column for column (a migration changing one changes both)', async () => {
    const columns = await t.database.query<{ schema: string; table_name: string; cols: string }>(
      `select table_schema as schema, table_name, string_agg(column_name || ':' || data_type, ',' order by ordinal_position) as cols
       from information_schema.columns where table_schema in ('public', '${SANDBOX_SCHEMA}')
       group by 1, 2`,
    );
    const of = (schema: string) =>
      new Map(columns.filter((c) => c.schema === schema).map((c) => [c.table_name, c.cols]));
    const pub = of('public');
    const sandbox = of(SANDBOX_SCHEMA);
    // The graph: people, suppressions, and every table keyed by a person (identity_id), but not the account tables.
    const graph = [...pub.entries()].filter(
      ([name, cols]) =>
        name === 'people' || name === 'suppressions' || (name.startsWith('person_') && cols.includes('identity_id:')),
    );
    expect(graph.length).toBeGreaterThanOrEqual(14);
    for (const [name, cols] of graph) expect(sandbox.get(name), name).toBe(cols);
    expect([...sandbox.keys()].sort()).toEqual(graph.map(([name]) => name).sort());
  });
});

describe('test keys', () => {
  it('are made as test keys, say so, and keep their mode for life', async () => {
    const key = await newKey({ mode: 'test' });
    expect(key.mode).toBe('test');
    const read = await api.get(`/v2/keys/${key.id}`, cookie);
    expect(read.json().keys[key.id].mode).toBe('test');
    expect((await newKey()).mode).toBe('live');
    const change = await api.put(`/v2/keys/${key.id}`, cookie, { mode: 'live' });
    expect(change.statusCode).toBe(400);
    expect(change.json().fields).toEqual([{ path: 'body.mode', message: KEY_MESSAGES.modeFixed }]);
    const bad = await api.post('/v2/keys', cookie, { name: 'k', mode: 'sandbox' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject([{ path: 'body.mode' }]);
  });

  it('answer from the sandbox, free: no contract needed, no usage row, no audit trail', async () => {
    const key = await newKey({ mode: 'test' }, unpaidCookie);
    const res = await byEmail(bearer(key), sampleEmail);
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res)).toContain(sample.id);
    expect(res.json().identities[0].emails.map((e: { address: string }) => e.address)).toContain(sampleEmail);
    expect(await usageRows(res.headers['x-request-id'])).toBe(0);
    const audit = await t.database.query('select 1 from lookup_audit where request_id = $1', [
      res.headers['x-request-id'],
    ]);
    expect(audit).toEqual([]);
    // The same organization's live key is refused for want of a contract.
    const live = await newKey({}, unpaidCookie);
    expect((await byEmail(bearer(live), sampleEmail)).statusCode).toBe(402);
  });

  it('never see a real person, by key or by id; live keys never see the sandbox', async () => {
    const test = await newKey({ mode: 'test' });
    const live = await newKey();
    expect(ids(await byEmail(bearer(live), realEmail))).toEqual([real.id]);
    expect(ids(await byEmail(bearer(test), realEmail))).toEqual([]);
    expect(ids(await get(bearer(test), `/v2/identities/byId?id=${real.id}`))).toEqual([]);
    expect(ids(await byEmail(bearer(live), sampleEmail))).toEqual([]);
    expect(ids(await get(bearer(live), `/v2/identities/byId?id=${sample.id}`))).toEqual([]);
    expect(ids(await get(bearer(test), `/v2/identities/byId?id=${sample.id}`))).toEqual([sample.id]);
  });

  it('take the same endpoints, inputs and errors as live keys', async () => {
    const key = await newKey({ mode: 'test' });
    const device = await get(bearer(key), `/v2/identities/byDevice?device=${sample.devices![0]!.deviceId}`);
    expect(ids(device)).toContain(sample.id);
    const vehicle = await get(bearer(key), `/v2/identities/byVehicle?vin=${sample.vehicles![0]!.vin}`);
    expect(ids(vehicle)).toContain(sample.id);
    const post = await t.app.inject({
      method: 'POST',
      url: '/v2/identities/byEmail',
      headers: { authorization: bearer(key) },
      payload: { inputs: [sampleEmail, realEmail] },
    });
    expect(post.statusCode, post.body).toBe(200);
    const results = post.json().results as { identities: { id: number }[] }[];
    expect(results.map((r) => r.identities.map((i) => i.id))).toEqual([expect.arrayContaining([sample.id]), []]);
    const csv = await t.app.inject({
      method: 'PUT',
      url: '/v2/identities/byEmail',
      headers: { authorization: bearer(key), 'content-type': 'text/csv' },
      payload: `email\n${sampleEmail}\n`,
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain(String(sample.id));
    expect(await usageRows(csv.headers['x-request-id'])).toBe(0);
    const bad = await byEmail(bearer(key), 'not an e-mail');
    expect(bad.statusCode).toBe(400);
    const unknownTemplate = await get(bearer(key), `/v2/identities/byId?id=${sample.id}&template=no-such-template`);
    expect(unknownTemplate.statusCode).toBe(400);
  });

  it('are rate-limited by the sandbox, and by the key when it says less', async () => {
    const key = await newKey({ mode: 'test' });
    const first = await byEmail(bearer(key), sampleEmail);
    expect(first.headers['ratelimit-policy']).toBe(`"key";q=${TEST_KEY_RATE_LIMIT};w=60`);
    const tight = await newKey({ mode: 'test', rateLimit: 2 });
    expect((await byEmail(bearer(tight), sampleEmail)).statusCode).toBe(200);
    expect((await byEmail(bearer(tight), sampleEmail)).statusCode).toBe(200);
    const refused = await byEmail(bearer(tight), sampleEmail);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('are presented with their prefix in every form, and a prefix on the wrong kind of key is refused', async () => {
    const test = await newKey({ mode: 'test' });
    const live = await newKey();
    const without = await byEmail(`Bearer ${test.id}${test.secret}`, sampleEmail);
    expect(without.statusCode).toBe(401);
    expect(without.json().error).toBe(KEY_MESSAGES.testPrefixMissing);
    const prefixed = await byEmail(`Bearer ${TEST_KEY_PREFIX}${live.id}${live.secret}`, sampleEmail);
    expect(prefixed.statusCode).toBe(401);
    expect(prefixed.json().error).toBe(KEY_MESSAGES.notATestKey);
    const time = String(Date.now());
    const signature = createHmac('sha256', test.secret).update(time).digest('hex');
    const signed = await byEmail(`Bearer ${TEST_KEY_PREFIX}${test.id}${time}${signature}`, sampleEmail);
    expect(signed.statusCode, signed.body).toBe(200);
    expect(ids(signed)).toContain(sample.id);
    // Still refused in a URL, prefix and all.
    const inUrl = await get(
      bearer(test),
      `/v2/identities/byEmail?email=${encodeURIComponent(sampleEmail)}&k=${TEST_KEY_PREFIX}${test.id}${test.secret}`,
    );
    expect(inUrl.statusCode).toBe(400);
  });
});

describe('GET /v2/samples', () => {
  it('gives live values that find a person on this graph, and sandbox values that find one there', async () => {
    const live = await newKey();
    const test = await newKey({ mode: 'test' });
    for (const [mode, key] of [
      ['live', live],
      ['test', test],
    ] as const) {
      const res = await api.get(`/v2/samples?mode=${mode}`, cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const s = res.json().samples;
      expect(s.mode).toBe(mode);
      const calls = [
        `byEmail?email=${encodeURIComponent(s.email)}`,
        `byPhone?phone=${encodeURIComponent(s.phone)}`,
        `byMd5?md5=${s.md5}`,
        `bySha256?sha256=${s.sha256}`,
        `byId?id=${s.id}`,
        `byPii?firstName=${encodeURIComponent(s.pii.firstName)}&lastName=${encodeURIComponent(s.pii.lastName)}&address=${encodeURIComponent(s.pii.address)}&zip=${s.pii.zip}`,
        ...(s.ip ? [`byIp?ip=${encodeURIComponent(s.ip)}`] : []),
        ...(s.device ? [`byDevice?device=${s.device}`] : []),
        ...(s.vin ? [`byVehicle?vin=${s.vin}`] : []),
      ];
      for (const call of calls) {
        const found = await get(bearer(key), `/v2/identities/${call}`);
        expect(found.statusCode, `${mode} ${call}: ${found.body}`).toBe(200);
        expect(ids(found).length, `${mode} ${call}`).toBeGreaterThan(0);
      }
      if (mode === 'test') expect(s.id).toBeGreaterThanOrEqual(SANDBOX_FIRST_ID);
      else expect(s.id).toBeLessThan(SANDBOX_FIRST_ID);
    }
  });

  it("gives the sandbox's to anyone, the graph's only to signed-in users who may look up, and names a bad mode", async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v2/samples' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/v2/samples?mode=live' })).statusCode).toBe(401);
    const open = await t.app.inject({ method: 'GET', url: '/v2/samples?mode=test' });
    expect(open.statusCode).toBe(200);
    expect(open.json().samples.id).toBeGreaterThanOrEqual(SANDBOX_FIRST_ID);
    const bad = await api.get('/v2/samples?mode=sandbox', cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('mode');
  });
});

describe('the sandbox people docs/api-keys.md lists', () => {
  it('are found by a test key, each by the value the table gives', async () => {
    const docs = readFileSync(path.join(REPO_ROOT, 'docs/api-keys.md'), 'utf8');
    const rows = [...docs.matchAll(/^\| (email|phone|ip|device|vin|id) \| `([^`]+)` \|/gm)].map(
      (m) => [m[1]!, m[2]!] as const,
    );
    expect(rows.map(([input]) => input)).toEqual(['email', 'phone', 'ip', 'device', 'vin', 'id']);
    const key = await newKey({ mode: 'test' });
    const judith = Number(rows.find(([input]) => input === 'id')![1]);
    const endpoint = {
      email: 'byEmail',
      phone: 'byPhone',
      ip: 'byIp',
      device: 'byDevice',
      vin: 'byVehicle',
      id: 'byId',
    };
    for (const [input, value] of rows) {
      const res = await get(
        bearer(key),
        `/v2/identities/${endpoint[input as keyof typeof endpoint]}?${input}=${encodeURIComponent(value)}`,
      );
      expect(ids(res), `${input}=${value}`).toContain(judith);
    }
    const pii = /\| firstName, lastName, address, zip \| `([^`]+)`, `([^`]+)`, `([^`]+)`, `([^`]+)` \|/.exec(docs)!;
    const byPii = await get(
      bearer(key),
      `/v2/identities/byPii?firstName=${pii[1]}&lastName=${pii[2]}&address=${encodeURIComponent(pii[3]!)}&zip=${pii[4]}`,
    );
    expect(ids(byPii)).toContain(judith);
  });
});
