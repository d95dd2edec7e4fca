/** Every lookup hands its spec §3 metrics to metering before it answers; if they cannot be kept, it answers 503. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type Database, openDatabase } from '../../db/client';
import { memoryFanout } from '../../socket/fanout';
import { consoleClient } from '../../test/console-client';
import {
  buildTestApp,
  makeContract,
  makeOrganization,
  makeUser,
  signIn,
  type TestApp,
  testConfig,
} from '../../test/harness';
import { createTemplate } from '../templates/repo';
import { createDatabaseMetering } from '../usage/metering';
import { USAGE_UNAVAILABLE } from './service';
import { load, person, uniqueEmail } from './test-people';

let t: TestApp;
let cookie: string;
let userId: number;
let organizationId: number;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
  organizationId = (await makeOrganization(t.database)).id;
  await makeContract(t.database, organizationId);
  const user = await makeUser(t.database, 'user', organizationId);
  userId = user.id;
  cookie = await signIn(t.app, user.email);
});
afterAll(() => t.app.close());

const usageOf = async (requestId: string) =>
  t.database.query<Record<string, unknown>>('select * from usage where request_id = $1', [requestId]);

describe('usage', () => {
  it('records a GET with every metric counted from what it returned', async () => {
    const p = person();
    await load(t.database, p);
    const res = await api.get(`/v2/identities/byEmail?email=${p.emails[0]!.address}`, cookie);
    const [row] = await usageOf(String(res.headers['x-request-id']));
    expect(row).toMatchObject({
      user_id: userId,
      organization_id: organizationId,
      key_id: null,
      method: 'GET',
      path: '/byEmail',
      status: 200,
      inputs: 1,
      inputs_with_identities: 1,
      identities: 1,
      identities_with_behaviors: 1,
      identities_with_data: 1,
      identities_with_devices: 1,
      identities_with_emails: 1,
      identities_with_ips: 1,
      identities_with_phones: 1,
      identities_with_properties: 1,
      identities_with_vehicles: 1,
      identities_with_finances: 1,
      identities_with_companies: 1,
      behaviors: 1,
      devices: 1,
      emails: 1,
      ips: 1,
      phones: 1,
      properties: 1,
      vehicles: 1,
      companies: 1,
      best_match_scores: 97,
    });
    expect(row!.milliseconds).toBeGreaterThanOrEqual(0);
  });

  it('counts a batch by inputs, those that found someone, and the best score of each', async () => {
    const a = person({ emails: [], phones: [] });
    const b = person();
    await load(t.database, a, b);
    const res = await api.post('/v2/identities/byAny', cookie, {
      inputs: [{ id: String(a.id) }, { email: b.emails[0]!.address }, { email: uniqueEmail() }],
    });
    const [row] = await usageOf(String(res.headers['x-request-id']));
    expect(row).toMatchObject({
      method: 'POST',
      path: '/byAny',
      inputs: 3,
      inputs_with_identities: 2,
      identities: 2,
      identities_with_emails: 1,
      emails: 1,
      phones: 1,
      best_match_scores: 197,
    });
  });

  it('records a streamed PUT once its last row is written, and nothing for a refused call', async () => {
    const p = person();
    await load(t.database, p);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v2/identities/byEmail',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'text/csv', cookie },
      payload: `email\n${p.emails[0]!.address}\n${uniqueEmail()}\nnot-an-email\n`,
    });
    expect(res.statusCode).toBe(200);
    const [row] = await usageOf(String(res.headers['x-request-id']));
    expect(row).toMatchObject({ method: 'PUT', path: '/byEmail', inputs: 2, inputs_with_identities: 1, identities: 1 });
    const refused = await api.get('/v2/identities/byEmail?email=nope', cookie);
    expect(refused.statusCode).toBe(400);
    expect(await usageOf(String(refused.headers['x-request-id']))).toEqual([]);
  });

  it('meters a template failure on real records as served, with status 422 (decision 0044)', async () => {
    const p = person();
    await load(t.database, p);
    const template = await createTemplate(t.database, {
      name: 'Lambda',
      organizationId,
      createdBy: userId,
      expression: '{"f": function($x) { $x }}',
      publish: true,
    });
    for (const format of ['json', 'csv']) {
      const res = await api.get(
        `/v2/identities/byEmail?email=${p.emails[0]!.address}&template=${template.id}&format=${format}`,
        cookie,
      );
      expect(res.statusCode).toBe(422);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(await usageOf(String(res.headers['x-request-id']))).toMatchObject([{ status: 422, identities: 1 }]);
    }
  });

  it('answers 503 and shows nothing when usage cannot be written', async () => {
    // A real database without the usage table: the write fails the way a lost database would.
    const broken: Database = await openDatabase({ dataDir: null });
    const app = await buildApp({
      config: testConfig(),
      database: t.database,
      fanout: memoryFanout(),
      metering: createDatabaseMetering(broken),
    });
    try {
      const p = person();
      await load(t.database, p);
      const res = await app.inject({
        method: 'GET',
        url: `/v2/identities/byEmail?email=${p.emails[0]!.address}`,
        headers: { cookie },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe(USAGE_UNAVAILABLE);
      expect(res.body).not.toContain(p.emails[0]!.address);
    } finally {
      await app.close();
      await broken.close();
    }
  });
});
