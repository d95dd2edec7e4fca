/**
 * /v2/webhooks by outcome (issue 33, decision 0066): administrators manage their organization's endpoints and
 * super+ any organization's (200, 201); the secret is shown at creation and rotation only; 401 without a session,
 * 403 below admin, 404 for another organization's endpoint; 409 past the limit and for a test to a disabled
 * endpoint; every change audited. Field checks are in validation.test.ts, the log in deliveries-log.test.ts.
 */
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES, type WebhookEndpoint } from '@tessera/common/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditedOf } from '../../test/audit-trail';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';
import { organizationWithAdmin } from './test-support';

let t: TestApp;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

/** A public address given as such: saved without any DNS lookup, and this suite's workers never send. */
const URL_A = 'https://93.184.215.14/hooks/tessera?token=abc';
const one = (res: { json(): { webhooks: Record<string, WebhookEndpoint> } }) => Object.values(res.json().webhooks)[0]!;

async function create(cookie: string, body: Record<string, unknown> = {}) {
  const res = await api.post('/v2/webhooks', cookie, { url: URL_A, events: ['identity.changed'], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return one(res);
}

describe('an administrator manages their organization’s endpoints', () => {
  it('makes one, seeing its secret once, then reads, lists, changes and deletes it', async () => {
    const { org, admin, cookie } = await organizationWithAdmin(t);
    const made = await create(cookie, { description: 'CRM sync', events: ['identity.changed', 'job.completed'] });
    expect(made).toEqual({
      id: expect.any(Number),
      organizationId: org.id,
      url: URL_A,
      description: 'CRM sync',
      events: ['identity.changed', 'job.completed'],
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      consecutiveFailures: 0,
      previousSecretValidUntil: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const { secret: _, ...item } = made;
    const read = await api.get(`/v2/webhooks/${made.id}`, cookie);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ webhooks: { [made.id]: item } });
    expect((await api.get('/v2/webhooks', cookie)).json()).toEqual({ webhooks: { [made.id]: item } });

    const changed = await api.put(`/v2/webhooks/${made.id}`, cookie, { description: 'CRM', events: ['job.completed'] });
    expect(changed.statusCode).toBe(200);
    expect(one(changed)).toMatchObject({ description: 'CRM', events: ['job.completed'], url: URL_A });
    const off = one(await api.put(`/v2/webhooks/${made.id}`, cookie, { enabled: false }));
    expect(off).toMatchObject({ enabled: false, disabledReason: 'manual', disabledAt: expect.any(String) });
    const on = one(await api.put(`/v2/webhooks/${made.id}`, cookie, { enabled: true }));
    expect(on).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0 });

    const gone = await api.del(`/v2/webhooks/${made.id}`, cookie);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ webhooks: { [made.id]: { id: made.id, deletedAt: expect.any(String) } } });
    expect((await api.get(`/v2/webhooks/${made.id}`, cookie)).statusCode).toBe(404);
    expect((await api.get('/v2/webhooks', cookie)).json()).toEqual({ webhooks: {} });

    const trail = await auditedOf(t.database, 'webhook', made.id);
    expect(trail.map((e) => e.action)).toEqual([
      'webhook.create',
      'webhook.update',
      'webhook.update',
      'webhook.update',
      'webhook.delete',
    ]);
    expect(trail.every((e) => e.actorId === admin.id)).toBe(true);
    // The audit names the host, never the URL, whose query may hold the receiver's token.
    expect(trail[0]!.detail).toEqual({ organizationId: org.id, host: '93.184.215.14', events: made.events });
    expect(JSON.stringify(trail)).not.toContain('token=abc');
  });

  it('rotates the secret: a new one shown once, the previous one still signing for the overlap', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const made = await create(cookie);
    const res = await api.post(`/v2/webhooks/${made.id}/rotate-secret`, cookie, undefined);
    expect(res.statusCode).toBe(200);
    const rotated = one(res);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(made.secret);
    const until = Date.parse(rotated.previousSecretValidUntil!);
    expect(until).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    expect(one(await api.get(`/v2/webhooks/${made.id}`, cookie)).secret).toBeUndefined();
    expect((await auditedOf(t.database, 'webhook', made.id)).map((e) => e.action)).toContain('webhook.rotate');
  });

  it('queues a test event (202) to an enabled endpoint, and refuses one to a disabled endpoint (409)', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const made = await create(cookie);
    const res = await api.post(`/v2/webhooks/${made.id}/test`, cookie, undefined);
    expect(res.statusCode).toBe(202);
    expect(res.json().webhookDelivery).toMatchObject({
      endpointId: made.id,
      messageId: expect.stringMatching(/^msg_[A-Za-z0-9_-]{24}$/),
      eventType: 'webhook.test',
      status: 'pending',
      attemptCount: 0,
      attempts: [],
      replayOf: null,
    });
    await api.put(`/v2/webhooks/${made.id}`, cookie, { enabled: false });
    const refused = await api.post(`/v2/webhooks/${made.id}/test`, cookie, undefined);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(WEBHOOK_MESSAGES.disabled);
  });

  it(`refuses more than ${WEBHOOK_LIMITS.endpointsPerOrganization} endpoints in an organization (409)`, async () => {
    const { cookie } = await organizationWithAdmin(t);
    for (let i = 0; i < WEBHOOK_LIMITS.endpointsPerOrganization; i++) await create(cookie, { description: `${i}` });
    const res = await api.post('/v2/webhooks', cookie, { url: URL_A, events: ['job.completed'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(WEBHOOK_MESSAGES.tooMany);
  });
});

describe('super and root act for any organization', () => {
  let superCookie: string;
  beforeAll(async () => {
    superCookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
  });

  it('make an endpoint for the organization named, list by organization, and change it', async () => {
    const { org, cookie } = await organizationWithAdmin(t);
    const made = await create(superCookie, { organizationId: org.id });
    expect(made.organizationId).toBe(org.id);
    expect(Object.keys((await api.get(`/v2/webhooks?organizationId=${org.id}`, superCookie)).json().webhooks)).toEqual([
      String(made.id),
    ]);
    // The organization's administrator sees it as theirs.
    expect(Object.keys((await api.get('/v2/webhooks', cookie)).json().webhooks)).toEqual([String(made.id)]);
    const all = (await api.get('/v2/webhooks', superCookie)).json().webhooks;
    expect(all[made.id]).toBeDefined();
    expect((await api.put(`/v2/webhooks/${made.id}`, superCookie, { description: 'by staff' })).statusCode).toBe(200);
  });

  it('must name an organization when they have none (400), and one that exists (404)', async () => {
    const res = await api.post('/v2/webhooks', superCookie, { url: URL_A, events: ['job.completed'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      { path: 'body.organizationId', message: WEBHOOK_MESSAGES.organizationRequired },
    ]);
    const missing = await api.post('/v2/webhooks', superCookie, {
      url: URL_A,
      events: ['job.completed'],
      organizationId: 2_000_000_000,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(WEBHOOK_MESSAGES.organizationNotFound);
  });
});

describe('401, 403 and 404', () => {
  it('answers 401 to someone not signed in', async () => {
    expect((await api.get('/v2/webhooks', '')).statusCode).toBe(401);
    expect((await api.post('/v2/webhooks', '', { url: URL_A, events: ['job.completed'] })).statusCode).toBe(401);
  });

  it('refuses members below admin (403) on every route, naming who may', async () => {
    const { cookie, member } = await organizationWithAdmin(t);
    const made = await create(cookie);
    const user = await signIn(t.app, member.email);
    const calls = [
      api.get('/v2/webhooks', user),
      api.post('/v2/webhooks', user, { url: URL_A, events: ['job.completed'] }),
      api.get(`/v2/webhooks/${made.id}`, user),
      api.put(`/v2/webhooks/${made.id}`, user, { description: 'x' }),
      api.del(`/v2/webhooks/${made.id}`, user),
      api.post(`/v2/webhooks/${made.id}/rotate-secret`, user, undefined),
      api.post(`/v2/webhooks/${made.id}/test`, user, undefined),
      api.get(`/v2/webhooks/${made.id}/deliveries`, user),
      api.post(`/v2/webhooks/${made.id}/deliveries/1/replay`, user, undefined),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', error: WEBHOOK_MESSAGES.forbidden });
    }
    // An administrator of no organization has none to manage.
    const loose = await signIn(t.app, (await makeUser(t.database, 'admin', null)).email);
    expect((await api.get('/v2/webhooks', loose)).statusCode).toBe(403);
  });

  it("answers 404 to another organization's administrator, and changes nothing", async () => {
    const mine = await organizationWithAdmin(t);
    const theirs = await organizationWithAdmin(t);
    const made = await create(mine.cookie);
    const other = theirs.cookie;
    const calls = [
      api.get(`/v2/webhooks/${made.id}`, other),
      api.put(`/v2/webhooks/${made.id}`, other, { description: 'mine now' }),
      api.del(`/v2/webhooks/${made.id}`, other),
      api.post(`/v2/webhooks/${made.id}/rotate-secret`, other, undefined),
      api.post(`/v2/webhooks/${made.id}/test`, other, undefined),
      api.get(`/v2/webhooks/${made.id}/deliveries`, other),
      api.post(`/v2/webhooks/${made.id}/deliveries/1/replay`, other, undefined),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(WEBHOOK_MESSAGES.notFound);
    }
    expect((await api.get('/v2/webhooks', other)).json().webhooks[made.id]).toBeUndefined();
    const named = await api.get(`/v2/webhooks?organizationId=${mine.org.id}`, other);
    expect(named.statusCode).toBe(404);
    const into = await api.post('/v2/webhooks', other, {
      url: URL_A,
      events: ['job.completed'],
      organizationId: mine.org.id,
    });
    expect(into.statusCode).toBe(404);
    expect(into.json().error).toBe(WEBHOOK_MESSAGES.organizationNotFound);
    const read = one(await api.get(`/v2/webhooks/${made.id}`, mine.cookie));
    expect(read).toMatchObject({ description: '', enabled: true });
    expect((await auditedOf(t.database, 'webhook', made.id)).map((e) => e.action)).toEqual(['webhook.create']);
  });

  it('answers 404 for an endpoint that does not exist, and 400 for an id that is not one', async () => {
    const { cookie } = await organizationWithAdmin(t);
    expect((await api.get('/v2/webhooks/2000000000', cookie)).statusCode).toBe(404);
    const bad = await api.get('/v2/webhooks/abc', cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].path).toBe('params.id');
  });
});
