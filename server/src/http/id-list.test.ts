/**
 * Spec §2's comma-separated id lists on the console resources' GETs (issue 32 item 8, decision 0062): several
 * records in one reply, each checked as a single GET checks it, and a list naming another organization's record
 * refused whole, with the single GET's answer, so it tells nothing about that record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../test/harness';
import { ID_LIST_MESSAGE } from './id-list';

let t: TestApp;
const api = consoleClient(() => t.app);
let mine: { id: number };
let theirs: { id: number };
let adminCookie: string;
let superCookie: string;
const ids: { me: number; colleague: number; stranger: number; myContracts: number[]; theirContract: number } = {
  me: 0,
  colleague: 0,
  stranger: 0,
  myContracts: [],
  theirContract: 0,
};

beforeAll(async () => {
  t = await buildTestApp();
  mine = await makeOrganization(t.database);
  theirs = await makeOrganization(t.database);
  const admin = await makeUser(t.database, 'admin', mine.id);
  ids.me = admin.id;
  ids.colleague = (await makeUser(t.database, 'user', mine.id)).id;
  ids.stranger = (await makeUser(t.database, 'user', theirs.id)).id;
  ids.myContracts = [(await makeContract(t.database, mine.id)).id, (await makeContract(t.database, mine.id)).id];
  ids.theirContract = (await makeContract(t.database, theirs.id)).id;
  adminCookie = await signIn(t.app, admin.email);
  superCookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});
afterAll(() => t.app.close());

const keysOf = (body: Record<string, unknown>, area: string) =>
  Object.keys(body[area] as object)
    .map(Number)
    .sort();

describe('comma-separated id lists (spec §2 resource route pattern)', () => {
  it('answers several users, organizations and contracts of one’s own organization', async () => {
    const users = await api.get(`/v2/users/${ids.me},${ids.colleague}`, adminCookie);
    expect(users.statusCode).toBe(200);
    expect(keysOf(users.json(), 'users')).toEqual([ids.me, ids.colleague].sort());

    const contracts = await api.get(`/v2/contracts/${ids.myContracts.join(',')}`, adminCookie);
    expect(contracts.statusCode).toBe(200);
    expect(keysOf(contracts.json(), 'contracts')).toEqual([...ids.myContracts].sort());
    expect(keysOf(contracts.json(), 'contractSpend')).toEqual([...ids.myContracts].sort());

    // A repeated id is one record.
    const again = await api.get(`/v2/organizations/${mine.id},${mine.id}`, adminCookie);
    expect(again.statusCode).toBe(200);
    expect(keysOf(again.json(), 'organizations')).toEqual([mine.id]);
  });

  it('refuses a list naming another organization’s record as the single GET does, with nothing about either', async () => {
    for (const [path, single] of [
      [`/v2/users/${ids.me},${ids.stranger}`, `/v2/users/${ids.stranger}`],
      [`/v2/organizations/${mine.id},${theirs.id}`, `/v2/organizations/${theirs.id}`],
      [`/v2/contracts/${ids.myContracts[0]},${ids.theirContract}`, `/v2/contracts/${ids.theirContract}`],
    ] as const) {
      const listed = await api.get(path, adminCookie);
      const alone = await api.get(single, adminCookie);
      expect(listed.statusCode, path).toBe(alone.statusCode);
      expect([403, 404], path).toContain(listed.statusCode);
      expect(listed.json().error, path).toBe(alone.json().error);
      const text = listed.body;
      for (const area of ['users', 'organizations', 'contracts']) expect(text, path).not.toContain(`"${area}"`);
    }
  });

  it('gives a System Administrator records of any organization, and 404 for a missing one', async () => {
    const both = await api.get(`/v2/organizations/${mine.id},${theirs.id}`, superCookie);
    expect(both.statusCode).toBe(200);
    expect(keysOf(both.json(), 'organizations')).toEqual([mine.id, theirs.id].sort());
    expect(keysOf(both.json(), 'users')).toEqual([ids.me, ids.colleague, ids.stranger].sort());
    const missing = await api.get(`/v2/users/${ids.me},2147483000`, superCookie);
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a malformed list with 400 naming the problem', async () => {
    for (const bad of ['1,,2', '1,x', '0', '1,-2', '1,2147483648']) {
      const res = await api.get(`/v2/users/${bad}`, superCookie);
      expect(res.statusCode, bad).toBe(400);
      expect(JSON.stringify(res.json()), bad).toContain(ID_LIST_MESSAGE);
    }
    // Past the router's 100 characters a parameter is refused before it is read, also as a 400 that says why.
    const long = await api.get(`/v2/users/${Array.from({ length: 60 }, (_, i) => i + 1).join(',')}`, superCookie);
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toContain('max param length');
  });
});
