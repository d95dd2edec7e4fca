/**
 * The outbox and the delivery log (issue 33, decision 0066), without sending (this suite's workers are off):
 * enqueueWebhookEvent writes a message and a delivery per enabled endpoint of the organization that takes the type,
 * in the caller's transaction, so an event exists exactly when the change committed; the log lists an endpoint's
 * deliveries newest first a page at a time, filters by status, and refuses a cursor it did not give; a replay needs
 * a delivery of that endpoint (404) and an enabled endpoint (409).
 */
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import { WEBHOOK_MESSAGES, type WebhookDelivery } from '@tessera/common/webhooks';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookMessages } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type TestApp } from '../../test/harness';
import { enqueueWebhookEvent } from './enqueue';
import { organizationWithAdmin } from './test-support';

let t: TestApp;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

const URL_A = 'https://93.184.215.14/hooks';

async function endpoint(cookie: string, body: Record<string, unknown> = {}) {
  const res = await api.post('/v2/webhooks', cookie, { url: URL_A, events: ['identity.changed'], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return Number(Object.keys(res.json().webhooks)[0]);
}

const deliveriesTo = (endpointId: number) =>
  t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

describe('enqueueWebhookEvent', () => {
  it('writes one message and a delivery to each enabled endpoint of the organization that takes the type', async () => {
    const { org, cookie } = await organizationWithAdmin(t);
    const other = await organizationWithAdmin(t);
    const changes = await endpoint(cookie, { events: ['identity.changed'] });
    const both = await endpoint(cookie, { events: ['identity.changed', 'job.completed'] });
    const jobs = await endpoint(cookie, { events: ['job.completed'] });
    const off = await endpoint(cookie, { events: ['identity.changed'], enabled: false });
    const elsewhere = await endpoint(other.cookie, { events: ['identity.changed'] });

    const data = { identityId: '12', changed: ['email'] };
    const enqueued = await t.database.transaction((tx) =>
      enqueueWebhookEvent(tx, { organizationId: org.id, type: 'identity.changed', data }),
    );
    expect(enqueued!.messageId).toMatch(/^msg_/);
    expect(enqueued!.deliveryIds).toHaveLength(2);
    for (const [id, count] of [
      [changes, 1],
      [both, 1],
      [jobs, 0],
      [off, 0],
      [elsewhere, 0],
    ] as const) {
      expect(await deliveriesTo(id), `endpoint ${id}`).toHaveLength(count);
    }
    const [message] = await t.database.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.publicId, enqueued!.messageId));
    expect(JSON.parse(message!.payload)).toEqual({ type: 'identity.changed', timestamp: expect.any(String), data });
    expect(message!.organizationId).toBe(org.id);
  });

  it('writes nothing when the transaction rolls back, nor when no endpoint takes the type', async () => {
    const { org, cookie } = await organizationWithAdmin(t);
    const id = await endpoint(cookie, { events: ['job.completed'] });
    const failed = t.database.transaction(async (tx) => {
      await enqueueWebhookEvent(tx, { organizationId: org.id, type: 'job.completed', data: { jobId: 1 } });
      throw new Error('the change failed');
    });
    await expect(failed).rejects.toThrow('the change failed');
    expect(await deliveriesTo(id)).toHaveLength(0);
    const none = await t.database.transaction((tx) =>
      enqueueWebhookEvent(tx, { organizationId: org.id, type: 'identity.changed', data: {} }),
    );
    expect(none).toBeNull();
    const [{ n }] = (await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookMessages)
      .where(eq(webhookMessages.organizationId, org.id))) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('refuses an event whose body would pass the size limit', async () => {
    const { org } = await organizationWithAdmin(t);
    const data = 'x'.repeat(300 * 1024);
    await expect(
      t.database.transaction((tx) => enqueueWebhookEvent(tx, { organizationId: org.id, type: 'job.completed', data })),
    ).rejects.toThrow(/over the webhook body limit/);
  });
});

describe('GET /v2/webhooks/{id}/deliveries', () => {
  let cookie: string;
  let id: number;
  const made: WebhookDelivery[] = [];
  beforeAll(async () => {
    ({ cookie } = await organizationWithAdmin(t));
    id = await endpoint(cookie);
    for (let i = 0; i < 12; i++)
      made.push((await api.post(`/v2/webhooks/${id}/test`, cookie, undefined)).json().webhookDelivery);
  });

  it('lists newest first, a page at a time, each delivery once', async () => {
    const size = TABLE_PAGE_SIZES[0];
    const first = await api.get(`/v2/webhooks/${id}/deliveries?pageSize=${size}`, cookie);
    expect(first.statusCode).toBe(200);
    const page = first.json().webhookDeliveries;
    expect(page.endpointId).toBe(id);
    expect(page.deliveries).toHaveLength(size);
    expect(page.next).toEqual(expect.any(String));
    const second = (await api.get(`/v2/webhooks/${id}/deliveries?pageSize=${size}&after=${page.next}`, cookie)).json()
      .webhookDeliveries;
    expect(second.next).toBeNull();
    const ids = [...page.deliveries, ...second.deliveries].map((d: WebhookDelivery) => d.id);
    expect(ids).toEqual(made.map((d) => d.id).reverse());
    expect(page.deliveries[0]).toMatchObject({
      status: 'pending',
      eventType: 'webhook.test',
      nextAttemptAt: expect.any(String),
    });
  });

  it('filters by status', async () => {
    await t.database.db
      .update(webhookDeliveries)
      .set({ status: 'failed' })
      .where(eq(webhookDeliveries.id, made[0]!.id));
    const failed = (await api.get(`/v2/webhooks/${id}/deliveries?status=failed`, cookie)).json().webhookDeliveries;
    expect(failed.deliveries.map((d: WebhookDelivery) => d.id)).toEqual([made[0]!.id]);
    expect(failed.deliveries[0].nextAttemptAt).toBeNull();
    const pending = (await api.get(`/v2/webhooks/${id}/deliveries?status=pending`, cookie)).json().webhookDeliveries;
    expect(pending.deliveries).toHaveLength(11);
  });

  it.each([
    ['after=bm9wZQ', 'querystring.after', WEBHOOK_MESSAGES.cursor],
    ['after=ZDA', 'querystring.after', WEBHOOK_MESSAGES.cursor],
    ['pageSize=7', 'querystring.pageSize', undefined],
    ['status=lost', 'querystring.status', undefined],
    ['sort=id', '', undefined],
  ])('refuses %s (400)', async (query, path, message) => {
    const res = await api.get(`/v2/webhooks/${id}/deliveries?${query}`, cookie);
    expect(res.statusCode).toBe(400);
    if (path) expect(res.json().fields.map((f: { path: string }) => f.path)).toContain(path);
    if (message) expect(res.json().fields[0].message).toBe(message);
  });
});

describe('POST /v2/webhooks/{id}/deliveries/{deliveryId}/replay', () => {
  it("answers 404 for a delivery that is not this endpoint's, 409 while the endpoint is disabled", async () => {
    const { cookie } = await organizationWithAdmin(t);
    const a = await endpoint(cookie);
    const b = await endpoint(cookie);
    const delivery = (await api.post(`/v2/webhooks/${a}/test`, cookie, undefined)).json().webhookDelivery;
    const wrong = await api.post(`/v2/webhooks/${b}/deliveries/${delivery.id}/replay`, cookie, undefined);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error).toBe(WEBHOOK_MESSAGES.deliveryNotFound);
    const missing = await api.post(`/v2/webhooks/${a}/deliveries/999999999/replay`, cookie, undefined);
    expect(missing.statusCode).toBe(404);
    await api.put(`/v2/webhooks/${a}`, cookie, { enabled: false });
    const off = await api.post(`/v2/webhooks/${a}/deliveries/${delivery.id}/replay`, cookie, undefined);
    expect(off.statusCode).toBe(409);
    expect(off.json().error).toBe(WEBHOOK_MESSAGES.disabled);
    expect(await deliveriesTo(a)).toHaveLength(1);
    await api.put(`/v2/webhooks/${a}`, cookie, { enabled: true });
    const replayed = await api.post(`/v2/webhooks/${a}/deliveries/${delivery.id}/replay`, cookie, undefined);
    expect(replayed.statusCode).toBe(202);
    expect(replayed.json().webhookDelivery).toMatchObject({ replayOf: delivery.id, messageId: delivery.messageId });
  });
});
