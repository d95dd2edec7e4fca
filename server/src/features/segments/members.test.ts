/**
 * Segment members (decision 0035): a count over segment_attributes equals a direct SQL count over the graph tables
 * for a table of filter combinations, follows the graph as it changes (re-imports, suppressions), and a suppressed
 * person is never counted, previewed or exported. An export goes through any template and is metered and priced
 * per identity at the organization's contract (usage path /segments).
 */
import { CREDIT_BANDS, INCOME_BANDS, NET_WORTH_BANDS, type SegmentFilters } from '@tessera/common/segments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, md5, suppress } from '../identities/test-people';
import { createTemplate } from '../templates/repo';
import { directCount, loadAudience, member } from './test-audience';

let t: TestApp;
let staff: string;
let staffId: number;
let audience: Awaited<ReturnType<typeof loadAudience>>;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
  const root = await makeUser(t.database, 'super');
  staffId = root.id;
  staff = await signIn(t.app, root.email);
  audience = await loadAudience(t.database);
});
afterAll(() => t.app.close());

const count = async (filters: SegmentFilters) => {
  const res = await api.post('/v2/segments/count', staff, { filters });
  expect(res.statusCode).toBe(200);
  return res.json().count as number;
};

const COMBINATIONS: SegmentFilters[] = [
  {},
  { states: ['OH'] },
  { states: ['OH', 'TX'], hasEmail: true },
  { zipPrefixes: ['43', '901'], genders: ['F'] },
  { ageMin: 35, ageMax: 54, homeOwner: true, hasEmail: true },
  { ageMin: 60 },
  { genders: ['M'], incomes: [INCOME_BANDS[2]!, INCOME_BANDS[4]!], hasPhone: false },
  { netWorths: [NET_WORTH_BANDS[0]!, NET_WORTH_BANDS[6]!], credits: [CREDIT_BANDS[1]!], hasDevice: true },
  { homeOwner: false, hasVehicle: true, states: ['CA'] },
  { behaviors: [{ category: 'Interests', name: 'Golf' }], hasEmail: false },
  { behaviors: [{ category: 'Travel' }, { category: 'Finance', name: 'Investor' }], hasVehicle: false },
  { behaviors: [{ category: 'Interests', name: 'Reading' }], incomes: [INCOME_BANDS[8]!], genders: ['F', 'M'] },
  { companies: ['other 0', 'OTHER 2'], hasDevice: false, zipPrefixes: ['75'] },
  { credits: [CREDIT_BANDS[4]!, CREDIT_BANDS[0]!], ageMax: 40, hasPhone: true },
];

describe('POST /v2/segments/count', () => {
  it.each(COMBINATIONS.map((f) => [JSON.stringify(f), f] as const))(
    'equals the direct SQL count for %s, over the whole graph and over one audience',
    async (_, filters) => {
      expect(await count(filters)).toBe(await directCount(t.database, filters));
      const scoped = { ...filters, companies: [...(filters.companies ?? []), audience.company] };
      const expected = await directCount(t.database, scoped);
      expect(await count(scoped)).toBe(expected);
    },
  );

  it('selects some but not all of the audience for most combinations (the table tests something)', async () => {
    const sizes = await Promise.all(COMBINATIONS.map((f) => count({ ...f, companies: [audience.company] })));
    expect(sizes[0]).toBe(audience.people.length);
    expect(sizes.filter((n) => n > 0 && n < audience.people.length).length).toBeGreaterThanOrEqual(10);
  });

  it('follows a re-import, and never counts a suppressed person or a suppressed e-mail', async () => {
    const { company, people } = await loadAudience(t.database, 8);
    const scope = { companies: [company] };
    expect(await count(scope)).toBe(8);
    // Re-imported as living elsewhere: the flat row follows the graph.
    await load(t.database, { ...people[0]!, state: 'WY' });
    expect(await count({ ...scope, states: ['WY'] })).toBe(1);
    await suppress(t.database, 'identity', String(people[1]!.id));
    expect(await count(scope)).toBe(7);
    const withEmail = people.filter((p, i) => i > 1 && p.emails.length > 0);
    const emailed = await count({ ...scope, hasEmail: true });
    await suppress(t.database, 'md5', md5(withEmail[0]!.emails[0]!.address));
    expect(await count({ ...scope, hasEmail: true })).toBe(emailed - 1);
    for (const f of COMBINATIONS)
      expect(await count({ ...f, ...scope })).toBe(await directCount(t.database, { ...f, ...scope }));
    // Lifted: counted again.
    await t.database.query(`delete from suppressions where kind = 'identity' and value = $1`, [String(people[1]!.id)]);
    expect(await count(scope)).toBe(8);
  });
});

describe('POST /v2/segments/preview', () => {
  it('shows the first 20 members by id, never a suppressed one', async () => {
    const { company, people } = await loadAudience(t.database, 24);
    const ids = people.map((p) => p.id).sort((a, b) => a - b);
    await suppress(t.database, 'identity', String(ids[0]));
    const res = await api.post('/v2/segments/preview', staff, { filters: { companies: [company] } });
    expect(res.statusCode).toBe(200);
    const members = res.json().members as { id: number; lastName: string }[];
    expect(members.map((m) => m.id)).toEqual(ids.slice(1, 21));
    expect(members[0]).toMatchObject({ id: ids[1], lastName: people.find((p) => p.id === ids[1])!.lastName });
  });
});

describe('GET /v2/segments/{id}/export.csv', () => {
  const parse = (body: string) => body.trimEnd().split('\r\n');

  it('exports every member through a template, in id order, never a suppressed one, metered and priced per identity', async () => {
    const org = await makeOrganization(t.database);
    await makeContract(t.database, org.id, { pricePerRequest: 0.5, pricePerIdentity: 0.25 });
    const user = await makeUser(t.database, 'user', org.id);
    const cookie = await signIn(t.app, user.email);
    // More members than one export batch, so the stream goes round.
    const company = `Export ${Date.now()}`;
    const people = Array.from({ length: 520 }, (_, i) => member(i, company));
    await load(t.database, ...people);
    const suppressed = people.slice(0, 3).map((p) => p.id);
    for (const id of suppressed) await suppress(t.database, 'identity', String(id));
    const created = await api.post('/v2/segments', staff, {
      name: 'Exported',
      filters: { companies: [company] },
      organizationIds: [org.id],
    });
    const id = Number(Object.keys(created.json().segments)[0]);
    const template = await createTemplate(t.database, {
      name: 'Names',
      organizationId: null,
      createdBy: staffId,
      expression: '{"who": id, "name": lastName}',
      publish: true,
    });

    const res = await api.get(`/v2/segments/${id}/export.csv?template=${template.id}`, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="segment-${id}.csv"`);
    const lines = parse(res.body);
    expect(lines[0]).toBe('who,name');
    const ids = lines.slice(1).map((l) => Number(l.split(',')[0]));
    const expected = people
      .map((p) => p.id)
      .filter((p) => !suppressed.includes(p))
      .sort((a, b) => a - b);
    expect(ids).toEqual(expected);

    const [usage] = await t.database.query<Record<string, unknown>>(
      'select path, method, organization_id, user_id, identities, cost::text as cost from usage where request_id = $1',
      [String(res.headers['x-request-id'])],
    );
    expect(usage).toMatchObject({
      path: '/segments',
      method: 'GET',
      organization_id: org.id,
      user_id: user.id,
      identities: 517,
      cost: (0.5 + 0.25 * 517).toFixed(6),
    });
    // Every member handed out is on the lookup audit trail, batch by batch, under the export's request id.
    const trail = await t.database.query<{ path: string; identity_ids: string[] }>(
      'select path, identity_ids from lookup_audit where request_id = $1 order by input',
      [String(res.headers['x-request-id'])],
    );
    expect(trail.length).toBeGreaterThan(1);
    expect(new Set(trail.map((r) => r.path))).toEqual(new Set(['/segments']));
    expect(trail.flatMap((r) => r.identity_ids.map(Number)).sort((a, b) => a - b)).toEqual(expected);
    // The usage page finds the export under its own path, and only it there.
    const calls = await api.get('/v2/usage/calls?path=%2Fsegments', cookie);
    expect(calls.statusCode, calls.body).toBe(200);
    expect(calls.json().usageCalls.calls).toMatchObject([{ path: '/segments', identities: 517 }]);
  });

  it('meters an export whose template fails on the first batch as served, and tells nothing of the records', async () => {
    const org = await makeOrganization(t.database);
    await makeContract(t.database, org.id);
    const user = await makeUser(t.database, 'user', org.id);
    const cookie = await signIn(t.app, user.email);
    const { company, people } = await loadAudience(t.database, 3);
    const created = await api.post('/v2/segments', staff, {
      name: 'Failing',
      filters: { companies: [company] },
      organizationIds: [org.id],
    });
    const id = Number(Object.keys(created.json().segments)[0]);
    const template = await createTemplate(t.database, {
      name: 'Assert',
      organizationId: null,
      createdBy: staffId,
      expression: '$assert(false, $string($))',
      publish: true,
    });
    const res = await api.get(`/v2/segments/${id}/export.csv?template=${template.id}`, cookie);
    expect(res.statusCode).toBe(422);
    for (const p of people) expect(res.body).not.toContain(p.lastName);
    const usage = await t.database.query<Record<string, unknown>>(
      'select status, identities from usage where request_id = $1',
      [String(res.headers['x-request-id'])],
    );
    expect(usage).toEqual([{ status: 422, identities: people.length }]);
    const trail = await t.database.query<{ identity_ids: string[] }>(
      'select identity_ids from lookup_audit where request_id = $1',
      [String(res.headers['x-request-id'])],
    );
    expect(trail.flatMap((r) => r.identity_ids.map(Number)).sort()).toEqual(people.map((p) => p.id).sort());
  });

  it('puts the people a preview shows on the lookup audit trail', async () => {
    const { company, people } = await loadAudience(t.database, 4);
    const res = await api.post('/v2/segments/preview', staff, { filters: { companies: [company] } });
    expect(res.statusCode, res.body).toBe(200);
    const shown = (res.json().members as { id: number }[]).map((m) => m.id).sort();
    expect(shown).toEqual(people.map((p) => p.id).sort());
    const trail = await t.database.query<{ path: string; user_id: number; identity_ids: string[] }>(
      'select path, user_id, identity_ids from lookup_audit where request_id = $1',
      [String(res.headers['x-request-id'])],
    );
    expect(trail.map((r) => ({ path: r.path, user: r.user_id, ids: r.identity_ids.map(Number).sort() }))).toEqual([
      { path: '/segments/preview', user: staffId, ids: shown },
    ]);
  });

  it('exports through the Full template by default, with the record types the user may see', async () => {
    const org = await makeOrganization(t.database);
    await makeContract(t.database, org.id);
    const user = await makeUser(t.database, 'user', org.id, { allowedRecordTypes: ['emails'] });
    const cookie = await signIn(t.app, user.email);
    const { company, people } = await loadAudience(t.database, 5);
    const created = await api.post('/v2/segments', staff, {
      name: 'Full',
      filters: { companies: [company], hasPhone: true },
      organizationIds: [org.id],
    });
    const id = Number(Object.keys(created.json().segments)[0]);
    const res = await api.get(`/v2/segments/${id}/export.csv`, cookie);
    expect(res.statusCode).toBe(200);
    const [header, ...rows] = parse(res.body);
    const columns = header!.split(',');
    expect(columns).toContain('emails.address');
    expect(rows).toHaveLength(people.filter((p) => p.phones.length > 0).length);
    const phones = columns.indexOf('phones.number');
    // Phones are not the user's to see: the column stays empty.
    for (const row of rows) expect(phones === -1 || row.split(',')[phones] === '').toBe(true);
  });
});
