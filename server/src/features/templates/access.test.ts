/**
 * Spec §6 on the server, as a matrix: who sees and who edits a template of organization A whose adminIds hold a
 * user of organization B (by id) and organization C (by id); and a system template, super or higher only.
 */
import type { Role } from '@tessera/common/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';

let t: TestApp;
const api = consoleClient(() => t.app);
const cookies: Record<string, string> = {};
let templateId: number;
let systemId: number;

const as = async (role: Role, organizationId: number | null) =>
  signIn(t.app, (await makeUser(t.database, role, organizationId)).email);

beforeAll(async () => {
  t = await buildTestApp();
  const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => makeOrganization(t.database)));
  const byId = await makeUser(t.database, 'user', b!.id);
  cookies.super = await as('super', null);
  cookies.root = await as('root', null);
  cookies.adminIn = await as('admin', a!.id);
  cookies.userById = await signIn(t.app, byId.email);
  cookies.userByOrganization = await as('user', c!.id);
  cookies.adminOut = await as('admin', a!.id);
  cookies.userOfA = await as('user', a!.id);
  cookies.otherOrganization = await as('admin', d!.id);
  // The super makes it, naming who may edit: an admin of A, a user of B by id, and organization C.
  const adminInId = (
    await t.database.query<{ id: number }>(
      'select id from users where organization_id = $1 and role = $2 order by id limit 1',
      [a!.id, 'admin'],
    )
  )[0]!.id;
  const made = await api.post('/v2/templates', cookies.super, {
    name: 'A',
    expression: '{"id": id}',
    organizationId: a!.id,
    adminIds: [adminInId, byId.id, c!.id],
  });
  expect(made.statusCode, made.body).toBe(200);
  templateId = Number(Object.keys(made.json().templates)[0]);
  const system = await api.post('/v2/templates', cookies.super, { name: 'S', expression: '$', organizationId: null });
  systemId = Number(Object.keys(system.json().templates)[0]);
});
afterAll(() => t.app.close());

// who: [sees it (GET), may edit it (PUT), sees and edits the system template]
const MATRIX: [string, number, number, [number, number]][] = [
  ['super', 200, 200, [200, 200]],
  ['root', 200, 200, [200, 200]],
  ['adminIn', 200, 200, [200, 403]],
  ['userById', 200, 200, [200, 403]],
  ['userByOrganization', 200, 200, [200, 403]],
  ['adminOut', 200, 403, [200, 403]],
  ['userOfA', 200, 403, [200, 403]],
  ['otherOrganization', 404, 404, [200, 403]],
];

describe('template access (spec §6)', () => {
  for (const [who, get, put, [systemGet, systemPut]] of MATRIX) {
    it(`${who}: GET ${get}, PUT ${put}; system template GET ${systemGet}, PUT ${systemPut}`, async () => {
      const cookie = cookies[who]!;
      expect((await api.get(`/v2/templates/${templateId}`, cookie)).statusCode).toBe(get);
      const listed = (await api.get('/v2/templates', cookie)).json().templates;
      expect(String(templateId) in listed).toBe(get === 200);
      expect(String(systemId) in listed).toBe(true);
      expect((await api.put(`/v2/templates/${templateId}`, cookie, { description: who })).statusCode).toBe(put);
      expect((await api.get(`/v2/templates/${systemId}`, cookie)).statusCode).toBe(systemGet);
      expect((await api.put(`/v2/templates/${systemId}`, cookie, { description: who })).statusCode).toBe(systemPut);
      const publish = await api.post(`/v2/templates/${systemId}/publish`, cookie, {});
      expect(publish.statusCode).toBe(systemPut === 200 ? publish.statusCode : 403);
    });
  }

  it('an editor grants only users and organizations they can see; a super any', async () => {
    const outsider = await makeUser(t.database, 'user', (await makeOrganization(t.database)).id);
    const refused = await api.put(`/v2/templates/${templateId}`, cookies.userById!, { adminIds: [outsider.id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields[0].path).toBe('body.adminIds');
    const granted = await api.put(`/v2/templates/${templateId}`, cookies.super!, { adminIds: [outsider.id] });
    expect(granted.statusCode).toBe(200);
  });
});
