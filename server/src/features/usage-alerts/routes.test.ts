/**
 * /v2/organizations/{id}/usage-alerts by outcome (decision 0029): the organization's administrators and super+ read
 * and change the settings (200); bad settings are 400 naming the field; members and other organizations'
 * administrators are 403, whether or not the organization exists; super+ get 404 for an unknown one.
 */
import { USAGE_ALERT_DEFAULTS, USAGE_ALERT_MESSAGES } from '@tessera/common/usage-alerts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { USAGE_ALERTS_FORBIDDEN } from './routes';

let t: TestApp;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

const path = (id: number) => `/v2/organizations/${id}/usage-alerts`;

async function organization() {
  const org = await makeOrganization(t.database);
  const admin = await makeUser(t.database, 'admin', org.id);
  const member = await makeUser(t.database, 'user', org.id);
  return { org, admin: await signIn(t.app, admin.email), member: await signIn(t.app, member.email) };
}

let superCookie: string;
beforeAll(async () => {
  superCookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});

describe('GET and PUT /v2/organizations/{id}/usage-alerts: 200', () => {
  it('gives an administrator the defaults, then saves a change that later reads return', async () => {
    const { org, admin } = await organization();
    const first = await api.get(path(org.id), admin);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      usageAlerts: { organizationId: org.id, ...USAGE_ALERT_DEFAULTS, updatedAt: null, firings: [] },
    });

    const saved = await api.put(path(org.id), admin, { thresholds: [100, 50, 75], spikeMultiple: 2.5 });
    expect(saved.statusCode).toBe(200);
    const settings = { thresholdsOn: true, thresholds: [50, 75, 100], spikeOn: true, spikeMultiple: 2.5 };
    expect(saved.json().usageAlerts).toMatchObject({ organizationId: org.id, ...settings, firings: [] });
    expect(Date.parse(saved.json().usageAlerts.updatedAt)).toBeGreaterThan(Date.now() - 60_000);

    // A partial body changes only what it names.
    const off = await api.put(path(org.id), admin, { spikeOn: false, thresholdsOn: false });
    expect(off.json().usageAlerts).toMatchObject({ ...settings, spikeOn: false, thresholdsOn: false });
    expect((await api.get(path(org.id), admin)).json().usageAlerts).toMatchObject({
      ...settings,
      spikeOn: false,
      thresholdsOn: false,
    });
  });

  it('lets super+ read and change any organization', async () => {
    const { org } = await organization();
    expect((await api.get(path(org.id), superCookie)).statusCode).toBe(200);
    const res = await api.put(path(org.id), superCookie, { thresholds: [90] });
    expect(res.statusCode).toBe(200);
    expect(res.json().usageAlerts.thresholds).toEqual([90]);
  });
});

describe('PUT /v2/organizations/{id}/usage-alerts: 400', () => {
  let org: { id: number };
  let admin: string;
  beforeAll(async () => {
    ({ org, admin } = await organization());
  });

  it.each([
    [{ thresholds: [] }, 'body.thresholds', USAGE_ALERT_MESSAGES.thresholds],
    [{ thresholds: [0] }, 'body.thresholds', USAGE_ALERT_MESSAGES.thresholds],
    [{ thresholds: [101] }, 'body.thresholds', USAGE_ALERT_MESSAGES.thresholds],
    [{ thresholds: [50.5] }, 'body.thresholds', USAGE_ALERT_MESSAGES.thresholds],
    [{ thresholds: [10, 20, 30, 40, 50, 60] }, 'body.thresholds', USAGE_ALERT_MESSAGES.thresholds],
    [{ thresholds: [80, 80] }, 'body.thresholds', USAGE_ALERT_MESSAGES.thresholdsRepeated],
    [{ thresholds: '80' }, 'body.thresholds', USAGE_ALERT_MESSAGES.thresholds],
    [{ spikeMultiple: 1.49 }, 'body.spikeMultiple', USAGE_ALERT_MESSAGES.multiple],
    [{ spikeMultiple: 100.01 }, 'body.spikeMultiple', USAGE_ALERT_MESSAGES.multiple],
    [{ spikeMultiple: 2.555 }, 'body.spikeMultiple', USAGE_ALERT_MESSAGES.multiple],
    [{ spikeMultiple: '3' }, 'body.spikeMultiple', USAGE_ALERT_MESSAGES.multiple],
    [{ spikeOn: 'yes' }, 'body.spikeOn', undefined],
  ])('refuses %j naming %s', async (body, field, message) => {
    const res = await api.put(path(org.id), admin, body);
    expect(res.statusCode).toBe(400);
    const fields = res.json().fields as { path: string; message: string }[];
    expect(fields.map((f) => f.path)).toContain(field);
    if (message) expect(fields.find((f) => f.path === field)?.message).toBe(message);
    // Nothing was saved.
    expect((await api.get(path(org.id), admin)).json().usageAlerts.updatedAt).toBeNull();
  });

  it('refuses a field it does not know', async () => {
    const res = await api.put(path(org.id), admin, { thresholds: [80], threshold: 90 });
    expect(res.statusCode).toBe(400);
  });
});

describe('/v2/organizations/{id}/usage-alerts: 401, 403 and 404', () => {
  it('answers 401 to someone not signed in', async () => {
    const { org } = await organization();
    expect((await api.get(path(org.id), '')).statusCode).toBe(401);
  });

  it("refuses the organization's plain members and other organizations' administrators (403)", async () => {
    const { org, admin, member } = await organization();
    const other = await organization();
    for (const [cookie, id] of [
      [member, org.id],
      [other.admin, org.id],
      [admin, other.org.id],
    ] as const) {
      const read = await api.get(path(id), cookie);
      expect(read.statusCode).toBe(403);
      const write = await api.put(path(id), cookie, { thresholds: [10] });
      expect(write.statusCode).toBe(403);
    }
    expect((await api.get(path(other.org.id), admin)).json().error).toBe(USAGE_ALERTS_FORBIDDEN);
    expect((await api.get(path(org.id), member)).json().code).toBe('forbidden');
    // The other organization's settings were not changed.
    expect((await api.get(path(other.org.id), other.admin)).json().usageAlerts.updatedAt).toBeNull();
  });

  it('gives an administrator 403 for an organization that does not exist, so ids cannot be probed', async () => {
    const { admin } = await organization();
    expect((await api.get(path(2_000_000_000), admin)).statusCode).toBe(403);
  });

  it('answers 404 to super+ for an organization that does not exist', async () => {
    expect((await api.get(path(2_000_000_000), superCookie)).statusCode).toBe(404);
    expect((await api.put(path(2_000_000_000), superCookie, { thresholds: [50] })).statusCode).toBe(404);
    expect((await api.get('/v2/organizations/abc/usage-alerts', superCookie)).statusCode).toBe(400);
  });
});
