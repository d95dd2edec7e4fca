/** Key replies carry lastUsedAt and callsThisMonth, read from the usage rollups (never from usage itself). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
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

  it("count this month's calls and give the hour of the last one, in the list and the item", async () => {
    const key = await newKey();
    const hour = new Date();
    hour.setUTCMinutes(0, 0, 0);
    for (let i = 0; i < 2; i++) expect((await lookup(key)).statusCode).toBe(200);
    // A call last month counts for lastUsedAt's history but not for this month.
    const lastMonth = new Date();
    lastMonth.setUTCDate(1);
    lastMonth.setUTCHours(0, 0, 0, 0);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    await t.database.query(
      `insert into usage_rollups (bucket, at, organization_id, user_id, key_id, method, path, requests)
       values ('day', $1, $2, $3, $4, 'GET', '/byId', 5), ('hour', $1, $2, $3, $4, 'GET', '/byId', 5)`,
      [lastMonth, organizationId, userId, key.id],
    );
    // The hour the calls were made in (or the next, should the clock pass the hour meanwhile).
    const hours = [hour.toISOString(), new Date(hour.getTime() + 3600_000).toISOString()];
    const item = (await api.get(`/v2/keys/${key.id}`, cookie)).json().keys[key.id];
    expect(item.callsThisMonth).toBe(2);
    expect(hours).toContain(item.lastUsedAt);
    const listed = (await api.get('/v2/keys', cookie)).json().keys[key.id];
    expect(listed).toMatchObject({ callsThisMonth: 2, lastUsedAt: item.lastUsedAt });
    const renamed = await api.put(`/v2/keys/${key.id}`, cookie, { name: 'renamed' });
    expect(renamed.json().keys[key.id]).toMatchObject({ name: 'renamed', callsThisMonth: 2 });
  });

  it('answer 401 signed out and 404 for a key out of reach', async () => {
    const key = await newKey();
    expect((await t.app.inject({ method: 'GET', url: '/v2/keys' })).statusCode).toBe(401);
    expect((await api.get(`/v2/keys/${key.id}`, otherCookie)).statusCode).toBe(404);
  });
});
