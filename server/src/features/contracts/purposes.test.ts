/**
 * A contract's permissible purposes (issue 34 item 2): ids of common/purposes.ts, each once, given and returned as
 * `purposes` (empty: none required); a bad one answers 400 naming it; a change holds the very next lookup to it.
 */
import { PURPOSE_MESSAGES } from '@tessera/common/purposes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';

let t: TestApp;
const api = consoleClient(() => t.app);
const p = person();
const lookup = `/v2/identities/byEmail?email=${encodeURIComponent(p.emails[0]!.address)}`;
let staff: string;
beforeAll(async () => {
  t = await buildTestApp();
  await load(t.database, p);
  staff = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});
afterAll(() => t.app.close());

const base = (organizationId: number) => ({
  organizationId,
  startsAt: new Date(Date.now() - 86_400_000).toISOString(),
  endsAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
});
const only = (res: { json(): { contracts: Record<string, Record<string, unknown>> } }) =>
  Object.values(res.json().contracts)[0]!;

describe('contract purposes', () => {
  it('are given and returned; none given, the list is empty; a change takes effect on the next lookup', async () => {
    const org = await makeOrganization(t.database);
    const member = await signIn(t.app, (await makeUser(t.database, 'user', org.id)).email);
    const made = await api.post('/v2/contracts', staff, base(org.id));
    expect(made.statusCode, made.body).toBe(201);
    const contract = only(made);
    expect(contract.purposes).toEqual([]);
    expect((await api.get(lookup, member)).statusCode).toBe(200);

    const changed = await api.put(`/v2/contracts/${contract.id}`, staff, { purposes: ['fcra-employment'] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(only(changed).purposes).toEqual(['fcra-employment']);
    const read = await api.get(`/v2/contracts/${contract.id}`, staff);
    expect(only(read).purposes).toEqual(['fcra-employment']);
    const changes = Object.values(
      read.json().contractChanges as Record<string, { action: string; changes: Record<string, unknown> }>,
    );
    expect(changes.filter((c) => c.action === 'updated').map((c) => c.changes)).toEqual([
      { purposes: { from: [], to: ['fcra-employment'] } },
    ]);
    const refused = await api.get(lookup, member);
    expect([refused.statusCode, refused.json().error]).toEqual([
      403,
      'This lookup needs a permissible purpose. Your contract allows: fcra-employment. Name one with purpose= or the X-Permissible-Purpose header.',
    ]);
    expect((await api.get(`${lookup}&purpose=fcra-employment`, member)).statusCode).toBe(200);

    // Emptied (or null): no purpose is required again.
    const emptied = await api.put(`/v2/contracts/${contract.id}`, staff, { purposes: [] });
    expect(only(emptied).purposes).toEqual([]);
    expect((await api.get(lookup, member)).statusCode).toBe(200);
    const [row] = await t.database.query<{ purposes: unknown }>('select purposes from contracts where id = $1', [
      contract.id,
    ]);
    expect(row!.purposes).toBeNull();
  });

  it('refuses an unknown id, one listed twice, or not a list, with 400 naming it, and writes nothing', async () => {
    const org = await makeOrganization(t.database);
    const cases: [unknown, string][] = [
      [['fcra-employment', 'stalking'], PURPOSE_MESSAGES.unknown('stalking')],
      [
        ['dppa-insurance', 'dppa-insurance'],
        'dppa-insurance is listed twice; please list each permissible purpose once.',
      ],
      ['fcra-employment', 'Please give the permissible purposes as a list of ids.'],
    ];
    for (const [purposes, message] of cases) {
      const res = await api.post('/v2/contracts', staff, { ...base(org.id), purposes });
      expect(res.statusCode, res.body).toBe(400);
      const field = (res.json().fields as { path: string; message: string }[]).find((f) => f.path.includes('purposes'));
      expect(field?.message, res.body).toBe(message);
    }
    expect(await t.database.query('select 1 from contracts where organization_id = $1', [org.id])).toEqual([]);
  });
});
