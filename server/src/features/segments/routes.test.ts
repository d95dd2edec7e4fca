/**
 * /v2/segments by outcome and rank: super+ build, save, change, delete, count and preview (200/201); signed out 401;
 * below super 403; bad bodies 400 naming the field; unknown segments 404 for super+. An organization's users list
 * and export only the segments assigned to their organization (403 for any other, whether or not it exists).
 */
import { SEGMENT_MESSAGES } from '@tessera/common/segments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditedOf } from '../../test/audit-trail';
import { consoleClient } from '../../test/console-client';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  makeContract,
  makeOrganization,
  makeUser,
  signIn,
  type TestApp,
} from '../../test/harness';

let t: TestApp;
let staff: string;
let staffId: number;
let root: string;
let org: { id: number };
let other: { id: number };
let admin: string;
let member: string;
let outsider: string;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
  const staffUser = await makeUser(t.database, 'super');
  staffId = staffUser.id;
  staff = await signIn(t.app, staffUser.email);
  root = await signIn(t.app, (await makeUser(t.database, 'root')).email);
  org = await makeOrganization(t.database);
  other = await makeOrganization(t.database);
  await makeContract(t.database, org.id);
  await makeContract(t.database, other.id);
  admin = await signIn(t.app, (await makeUser(t.database, 'admin', org.id)).email);
  member = await signIn(t.app, (await makeUser(t.database, 'user', org.id)).email);
  outsider = await signIn(t.app, (await makeUser(t.database, 'admin', other.id)).email);
});
afterAll(() => t.app.close());

const only = (res: { json(): { segments: Record<string, Record<string, unknown>> } }) =>
  Object.values(res.json().segments)[0]!;

async function create(body: Record<string, unknown> = {}) {
  const res = await api.post('/v2/segments', staff, {
    name: 'Ohio homeowners 35-54 with e-mail',
    filters: { states: ['OH'], ageMin: 35, ageMax: 54, homeOwner: true, hasEmail: true },
    organizationIds: [org.id],
    ...body,
  });
  expect(res.statusCode).toBe(201);
  return only(res) as { id: number; organizationIds: number[] };
}

describe('/v2/segments: 200 and 201 for super+', () => {
  it('saves, reads, changes and deletes a segment', async () => {
    const res = await api.post('/v2/segments', staff, {
      name: '  Golfers  ',
      filters: { behaviors: [{ category: 'Interests', name: 'Golf' }], zipPrefixes: ['43'], hasEmail: true },
      organizationIds: [other.id, org.id, org.id],
    });
    expect(res.statusCode).toBe(201);
    const saved = only(res);
    expect(saved).toMatchObject({
      name: 'Golfers',
      filters: { behaviors: [{ category: 'Interests', name: 'Golf' }], zipPrefixes: ['43'], hasEmail: true },
      organizationIds: [org.id, other.id].sort((a, b) => a - b),
      deletedAt: null,
    });
    const id = saved.id as number;
    expect(only(await api.get(`/v2/segments/${id}`, root))).toEqual(saved);
    expect((await api.get('/v2/segments', staff)).json().segments[id]).toEqual(saved);

    const changed = await api.put(`/v2/segments/${id}`, staff, { name: 'Golfers in Ohio', organizationIds: [] });
    expect(changed.statusCode).toBe(200);
    expect(only(changed)).toMatchObject({ name: 'Golfers in Ohio', filters: saved.filters, organizationIds: [] });

    const deleted = await api.del(`/v2/segments/${id}`, staff);
    expect(deleted.statusCode).toBe(200);
    expect(only(deleted).deletedAt).toEqual(expect.any(String));
    expect((await api.get(`/v2/segments/${id}`, staff)).statusCode).toBe(404);
    expect((await api.get('/v2/segments', staff)).json().segments[id]).toBeUndefined();
    // Who made the audience and to whom it was given, in the audit log.
    expect(await auditedOf(t.database, 'segment', id)).toEqual([
      { action: 'segment.create', actorId: staffId, detail: { organizationIds: saved.organizationIds } },
      {
        action: 'segment.update',
        actorId: staffId,
        detail: { fields: ['name', 'organizationIds'], organizationIds: [] },
      },
      { action: 'segment.delete', actorId: staffId, detail: {} },
    ]);
  });

  it('counts and previews a definition without saving it', async () => {
    const count = await api.post('/v2/segments/count', staff, { filters: { states: ['WY'], hasVehicle: true } });
    expect(count.statusCode).toBe(200);
    expect(count.json()).toEqual({ count: expect.any(Number) });
    const preview = await api.post('/v2/segments/preview', root, { filters: {} });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().members.length).toBeLessThanOrEqual(20);
  });
});

describe('/v2/segments: an organization sees what is assigned to it', () => {
  it('lists and reads only its assigned segments, and not whom else they are assigned to', async () => {
    const mine = await create({ organizationIds: [org.id, other.id] });
    const theirs = await create({ organizationIds: [other.id] });
    for (const cookie of [admin, member]) {
      const list = (await api.get('/v2/segments', cookie)).json().segments;
      expect(list[mine.id]).toMatchObject({ id: mine.id, organizationIds: [org.id] });
      expect(list[theirs.id]).toBeUndefined();
      expect(only(await api.get(`/v2/segments/${mine.id}`, cookie)).organizationIds).toEqual([org.id]);
    }
  });

  it('lets its users export an assigned segment (200) but no other (403, existing or not)', async () => {
    const mine = await create();
    const res = await api.get(`/v2/segments/${mine.id}/export.csv`, member);
    expect(res.statusCode).toBe(200);
    for (const path of [`/v2/segments/${mine.id}`, `/v2/segments/${mine.id}/export.csv`]) {
      const refused = await api.get(path, outsider);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe(SEGMENT_MESSAGES.notAssigned);
    }
    for (const path of ['/v2/segments/999999', '/v2/segments/999999/export.csv']) {
      expect((await api.get(path, member)).statusCode).toBe(403);
    }
  });
});

describe('/v2/segments: 400', () => {
  it.each([
    [{ name: ' ', filters: {} }, 'body.name', SEGMENT_MESSAGES.name],
    [{ name: 'x'.repeat(101), filters: {} }, 'body.name', SEGMENT_MESSAGES.nameLength],
    [{ name: 'A', filters: { states: ['ZZ'] } }, 'body.filters.states.0', SEGMENT_MESSAGES.state],
    [{ name: 'A', filters: { zipPrefixes: ['4a'] } }, 'body.filters.zipPrefixes.0', SEGMENT_MESSAGES.zipPrefix],
    [{ name: 'A', filters: { ageMin: 130 } }, 'body.filters.ageMin', SEGMENT_MESSAGES.age],
    [{ name: 'A', filters: { ageMin: 50, ageMax: 40 } }, 'body.filters.ageMax', SEGMENT_MESSAGES.ageOrder],
    [
      { name: 'A', filters: { incomes: ['lots'] } },
      'body.filters.incomes.0',
      SEGMENT_MESSAGES.choice('income band', 'lots'),
    ],
    [{ name: 'A', filters: { hasEmail: 'yes' } }, 'body.filters.hasEmail', SEGMENT_MESSAGES.flag('hasEmail')],
    [{ name: 'A', filters: { behaviors: [{ name: 'Golf' }] } }, 'body.filters.behaviors.0', SEGMENT_MESSAGES.behavior],
    [{ name: 'A', filters: { colour: ['red'] } }, 'body.filters.colour', SEGMENT_MESSAGES.unknown('colour')],
    [{ name: 'A', filters: [] }, 'body.filters', SEGMENT_MESSAGES.filters],
    [{ name: 'A', filters: {}, organizationIds: ['x'] }, 'body.organizationIds.0', SEGMENT_MESSAGES.organizations],
  ])('refuses %j naming %s', async (body, path, message) => {
    const res = await api.post('/v2/segments', staff, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toContainEqual({ path, message });
  });

  it('refuses an unknown organization, and the same filters on count and preview', async () => {
    const res = await api.post('/v2/segments', staff, { name: 'A', filters: {}, organizationIds: [999999] });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      { path: 'body.organizationIds', message: SEGMENT_MESSAGES.unknownOrganization(999999) },
    ]);
    for (const path of ['/v2/segments/count', '/v2/segments/preview']) {
      const bad = await api.post(path, staff, { filters: { states: ['Ohio'] } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields).toContainEqual({ path: 'body.filters.states.0', message: SEGMENT_MESSAGES.state });
    }
  });

  it('refuses a template that is no number, and one that does not exist', async () => {
    const mine = await create();
    const nan = await api.get(`/v2/segments/${mine.id}/export.csv?template=abc`, member);
    expect(nan.statusCode).toBe(400);
    const unknown = await api.get(`/v2/segments/${mine.id}/export.csv?template=999999`, member);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields[0].path).toBe('querystring.template');
  });
});

describe('/v2/segments: 401, 403, 404', () => {
  it('answers 401 to anyone signed out', async () => {
    for (const [method, url] of [
      ['GET', '/v2/segments'],
      ['POST', '/v2/segments'],
      ['POST', '/v2/segments/count'],
      ['GET', '/v2/segments/1/export.csv'],
    ] as const) {
      const payload = method === 'POST' ? { payload: { filters: {} } } : {};
      const res = await t.app.inject({ method, url, headers: CONSOLE_HEADERS, ...payload });
      expect(res.statusCode).toBe(401);
    }
  });

  it('answers 403 to organization administrators and users for every change, count and preview', async () => {
    const mine = await create();
    for (const cookie of [admin, member]) {
      const calls = [
        api.post('/v2/segments', cookie, { name: 'A', filters: {} }),
        api.put(`/v2/segments/${mine.id}`, cookie, { name: 'B' }),
        api.del(`/v2/segments/${mine.id}`, cookie),
        api.post('/v2/segments/count', cookie, { filters: {} }),
        api.post('/v2/segments/preview', cookie, { filters: {} }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toBe(SEGMENT_MESSAGES.forbidden);
      }
    }
    expect(only(await api.get(`/v2/segments/${mine.id}`, staff)).name).toBe('Ohio homeowners 35-54 with e-mail');
  });

  it('answers 404 to super+ for a segment that does not exist or was deleted', async () => {
    const gone = await create();
    await api.del(`/v2/segments/${gone.id}`, staff);
    for (const id of [999999, gone.id]) {
      expect((await api.get(`/v2/segments/${id}`, staff)).statusCode).toBe(404);
      expect((await api.put(`/v2/segments/${id}`, staff, { name: 'X' })).statusCode).toBe(404);
      expect((await api.del(`/v2/segments/${id}`, staff)).statusCode).toBe(404);
      expect((await api.get(`/v2/segments/${id}/export.csv`, staff)).statusCode).toBe(404);
    }
  });

  it('answers 402 to an organization without a contract in force', async () => {
    const bare = await makeOrganization(t.database);
    const user = await signIn(t.app, (await makeUser(t.database, 'user', bare.id)).email);
    const mine = await create({ organizationIds: [bare.id] });
    expect((await api.get(`/v2/segments/${mine.id}/export.csv`, user)).statusCode).toBe(402);
  });
});
