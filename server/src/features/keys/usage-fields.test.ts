/**
 * Key replies carry lastUsedAt (the time of the latest call) and callsThisMonth, read from the usage rollups and their
 * tail (never a scan of usage).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { rollUpAll } from '../../test/usage-rollups';
import { load, person } from '../identities/test-people';

let t: TestApp;
let cookie: string;
let otherCookie: string;
let userId: number;
let organizationId: number;
const api = consoleClient(() => t.app);
const p = person();
beforeAll(async () => {
  t = await buildTestApp();
  const org = await makeOrganization(t.database);
  organizationId = org.id;
  await makeContract(t.database, org.id);
  const user = await makeUser(t.database, 'user', org.id);
  userId = user.id;
  cookie = await signIn(t.app, user.email);
  otherCookie = await signIn(
    t.app,
    (await makeUser(t.database, 'user', (await makeOrganization(t.database)).id)).email,
  );
  await load(t.database, p);
});
afterAll(() => t.app.close());

async function newKey(): Promise<{ id: string; secret: string; lastUsedAt: string | null; callsThisMonth: number }> {
  const res = await api.post('/v2/keys', cookie, { name: 'usage key' });
  expect(res.statusCode, res.body).toBe(201);
  return Object.values(res.json().keys)[0] as never;
}

const lookup = (key: { id: string; secret: string }) =>
  t.app.inject({
    method: 'GET',
    url: `/v2/identities/byId?id=${p.id}`,
    headers: { authorization: `Bearer ${key.id}${key.secret}` },
  });

describe('key usage fields', () => {
  it('are null and 0 for a new key', async () => {
    const key = await newKey();
    expect(key).toMatchObject({ lastUsedAt: null, callsThisMonth: 0 });
    const listed = (await api.get('/v2/keys', cookie)).json().keys[key.id];
    expect(listed).toMatchObject({ lastUsedAt: null, callsThisMonth: 0 });
  });

  it("count this month's calls and give the time of the last one, in the list and the item", async () => {
    const key = await newKey();
    for (let i = 0; i < 2; i++) expect((await lookup(key)).statusCode).toBe(200);
    // A call last month counts for lastUsedAt's history but not for this month (a rollup from before last_at).
    const lastMonth = new Date();
    lastMonth.setUTCDate(1);
    lastMonth.setUTCHours(0, 0, 0, 0);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    await t.database.query(
      `insert into usage_rollups (bucket, at, organization_id, user_id, key_id, method, path, requests)
       values ('day', $1, $2, $3, $4, 'GET', '/byId', 5), ('hour', $1, $2, $3, $4, 'GET', '/byId', 5)`,
      [lastMonth, organizationId, userId, key.id],
    );
    // The moment of the latest call as the usage log has it (issue 31: not its hour), before and after a rollup.
    const [logged] = await t.database.query<{ at: Date | string }>(
      'select max(at) as at from usage where key_id = $1',
      [key.id],
    );
    const last = new Date(logged!.at).toISOString();
    for (const when of ['in the tail', 'rolled up']) {
      if (when === 'rolled up') await rollUpAll(t.database);
      const item = (await api.get(`/v2/keys/${key.id}`, cookie)).json().keys[key.id];
      expect(item, when).toMatchObject({ callsThisMonth: 2, lastUsedAt: last });
      const listed = (await api.get('/v2/keys', cookie)).json().keys[key.id];
      expect(listed, when).toMatchObject({ callsThisMonth: 2, lastUsedAt: last });
    }
    const renamed = await api.put(`/v2/keys/${key.id}`, cookie, { name: 'renamed' });
    expect(renamed.json().keys[key.id]).toMatchObject({ name: 'renamed', callsThisMonth: 2, lastUsedAt: last });
  });

  it('give an hour rolled up before the last call was kept as that hour, and a later call to the moment', async () => {
    const key = await newKey();
    const hourAgo = new Date(Date.now() - 3600_000);
    hourAgo.setUTCMinutes(0, 0, 0);
    await t.database.query(
      `insert into usage_rollups (bucket, at, organization_id, user_id, key_id, method, path, requests)
       values ('hour', $1, $2, $3, $4, 'GET', '/byId', 1)`,
      [hourAgo, organizationId, userId, key.id],
    );
    const read = async () => (await api.get(`/v2/keys/${key.id}`, cookie)).json().keys[key.id].lastUsedAt;
    expect(await read()).toBe(hourAgo.toISOString());
    expect((await lookup(key)).statusCode).toBe(200);
    const [logged] = await t.database.query<{ at: Date | string }>(
      'select max(at) as at from usage where key_id = $1',
      [key.id],
    );
    expect(await read()).toBe(new Date(logged!.at).toISOString());
  });

  it('answer 401 signed out and 404 for a key out of reach', async () => {
    const key = await newKey();
    expect((await t.app.inject({ method: 'GET', url: '/v2/keys' })).statusCode).toBe(401);
    expect((await api.get(`/v2/keys/${key.id}`, otherCookie)).statusCode).toBe(404);
  });
});
