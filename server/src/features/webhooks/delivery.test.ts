/**
 * Deliveries end to end (issue 33, decision 0066) against a real receiver on loopback: a test event arrives signed
 * as docs/webhooks.md says (checked with verifyWebhook and, apart from it, with node:crypto); a receiver that fails
 * five times gets the event a sixth time and the log shows six attempts; during a rotation's overlap both secrets
 * verify; a replay sends the same message again; redirects are not followed, answers are cut to an excerpt and a
 * receiver that hangs times out.
 */
import { verifyWebhook } from '@tessera/common/webhook-signature';
import { WEBHOOK_LIMITS } from '@tessera/common/webhooks';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type TestApp } from '../../test/harness';
import {
  DELIVERING,
  deliveriesOf,
  eventually,
  expectedSignature,
  makeEndpoint,
  type OwnDatabase,
  organizationWithAdmin,
  ownDatabase,
  type Receiver,
  startReceiver,
} from './test-support';
import type { DeliveredEvent } from './worker';

let own: OwnDatabase;
let t: TestApp;
let receiver: Receiver;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  own = await ownDatabase('webhook_delivery');
  receiver = await startReceiver();
  t = await buildTestApp({ database: own.database, env: { ...DELIVERING, WEBHOOK_TIMEOUT_MS: '1000' } });
});
afterAll(async () => {
  await t?.app.close();
  await receiver?.close();
  await own?.drop();
});

const at = (path: string) => receiver.received.filter((r) => r.path === path);

describe('a test event', () => {
  it('arrives once, signed with the secret shown at creation, verifiable as documented', async () => {
    const { org, cookie } = await organizationWithAdmin(t);
    const { id, secret } = await makeEndpoint(t, cookie, { url: `${receiver.base}/first` });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const sent = await api.post(`/v2/webhooks/${id}/test`, cookie, undefined);
    expect(sent.statusCode).toBe(202);
    const queued = sent.json().webhookDelivery;
    expect(queued).toMatchObject({ endpointId: id, eventType: 'webhook.test', status: 'pending', attemptCount: 0 });

    await eventually(() => expect(at('/first')).toHaveLength(1));
    const [got] = at('/first');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['webhook-id']).toBe(queued.messageId);
    expect(Number(got!.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
    // The documented check, and one made here with node:crypto alone.
    const event = verifyWebhook(secret, got!.headers, got!.body);
    expect(got!.headers['webhook-signature']).toBe(expectedSignature(secret, got!.headers, got!.body));
    expect(event).toEqual({
      type: 'webhook.test',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { endpointId: id, organizationId: org.id, message: 'This is a test event from Tessera.' },
    });
    // A wrong secret and a stale timestamp are refused by the same function.
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(32).toString('base64')}`, got!.headers, got!.body)).toThrow();
    expect(() => verifyWebhook(secret, got!.headers, got!.body, 300, Date.now() + 3_600_000)).toThrow(/too old/);

    await eventually(async () => expect((await deliveriesOf(t, cookie, id))[0]!.status).toBe('succeeded'));
    const [logged] = await deliveriesOf(t, cookie, id);
    expect(logged).toMatchObject({ attemptCount: 1, lastStatusCode: 200, nextAttemptAt: null });
    expect(logged!.attempts).toEqual([
      {
        attempt: 1,
        at: expect.any(String),
        statusCode: 200,
        error: null,
        latencyMs: expect.any(Number),
        responseExcerpt: 'ok',
      },
    ]);
  });
});

describe('retries', () => {
  it('sends the event once more after five failures, with the same webhook-id, and logs six attempts', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const { id, secret } = await makeEndpoint(t, cookie, { url: `${receiver.base}/flaky` });
    receiver.answer = (request, n) =>
      request.path === '/flaky' && n < 5 ? { status: 503, body: `down ${n + 1}` } : { status: 200, body: 'ok' };
    const sent = await api.post(`/v2/webhooks/${id}/test`, cookie, undefined);
    const { messageId } = sent.json().webhookDelivery;

    await eventually(async () => expect((await deliveriesOf(t, cookie, id))[0]!.status).toBe('succeeded'));
    const got = at('/flaky');
    expect(got).toHaveLength(6);
    for (const request of got) {
      expect(request.headers['webhook-id']).toBe(messageId);
      expect(verifyWebhook(secret, request.headers, request.body)).toMatchObject({ type: 'webhook.test' });
    }
    const [logged] = await deliveriesOf(t, cookie, id);
    expect(logged!.attemptCount).toBe(6);
    expect(logged!.attempts.map((a) => [a.attempt, a.statusCode, a.responseExcerpt])).toEqual([
      [1, 503, 'down 1'],
      [2, 503, 'down 2'],
      [3, 503, 'down 3'],
      [4, 503, 'down 4'],
      [5, 503, 'down 5'],
      [6, 200, 'ok'],
    ]);
  });

  it('gives up after the last attempt of the schedule: the delivery is failed', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const { id } = await makeEndpoint(t, cookie, { url: `${receiver.base}/down` });
    receiver.answer = (request) => (request.path === '/down' ? { status: 500 } : { status: 200 });
    await api.post(`/v2/webhooks/${id}/test`, cookie, undefined);
    await eventually(async () => expect((await deliveriesOf(t, cookie, id))[0]!.status).toBe('failed'));
    const [logged] = await deliveriesOf(t, cookie, id);
    // WEBHOOK_RETRY_SCHEDULE of these tests has six entries: six attempts, then no more.
    expect(logged).toMatchObject({ attemptCount: 6, lastStatusCode: 500, nextAttemptAt: null });
    expect(at('/down')).toHaveLength(6);
  });
});

describe('a delivered-hook', () => {
  it('runs once when a delivery succeeds, inside the transaction that records the success', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const { id } = await makeEndpoint(t, cookie, { url: `${receiver.base}/hooked` });
    receiver.answer = (request, n) => (request.path === '/hooked' && n < 2 ? { status: 500 } : { status: 200 });
    const told: { event: DeliveredEvent; status: string }[] = [];
    t.app.webhooks.onDelivered('webhook.test', async (tx, event) => {
      if (event.endpointId !== id) return;
      const seen = (await tx.execute(
        sql`select status from webhook_deliveries where id = ${event.deliveryId}`,
      )) as unknown as { rows: { status: string }[] };
      told.push({ event, status: seen.rows[0]!.status });
    });
    const queued = (await api.post(`/v2/webhooks/${id}/test`, cookie, undefined)).json().webhookDelivery;
    await eventually(async () => expect((await deliveriesOf(t, cookie, id))[0]!.status).toBe('succeeded'));
    expect(told).toEqual([
      {
        event: {
          deliveryId: queued.id,
          endpointId: id,
          organizationId: expect.any(Number),
          messageId: queued.messageId,
          eventType: 'webhook.test',
        },
        // The success is already written in the transaction the hook runs in.
        status: 'succeeded',
      },
    ]);
  });
});

describe('rotation', () => {
  it('signs with both secrets during the overlap, each verifying, the new one first', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const { id, secret: old } = await makeEndpoint(t, cookie, { url: `${receiver.base}/rotated` });
    const rotated = await api.post(`/v2/webhooks/${id}/rotate-secret`, cookie, undefined);
    expect(rotated.statusCode).toBe(200);
    const item = rotated.json().webhooks[id];
    expect(item.secret).toMatch(/^whsec_/);
    expect(item.secret).not.toBe(old);
    // The default overlap: 24 hours.
    expect(Date.parse(item.previousSecretValidUntil) - Date.now()).toBeGreaterThan(23 * 3_600_000);

    await api.post(`/v2/webhooks/${id}/test`, cookie, undefined);
    await eventually(() => expect(at('/rotated')).toHaveLength(1));
    const [got] = at('/rotated');
    const signatures = String(got!.headers['webhook-signature']).split(' ');
    expect(signatures).toEqual([
      expectedSignature(item.secret, got!.headers, got!.body),
      expectedSignature(old, got!.headers, got!.body),
    ]);
    expect(verifyWebhook(item.secret, got!.headers, got!.body)).toMatchObject({ type: 'webhook.test' });
    expect(verifyWebhook(old, got!.headers, got!.body)).toMatchObject({ type: 'webhook.test' });
    // Neither reply nor log shows a secret again.
    const read = await api.get(`/v2/webhooks/${id}`, cookie);
    expect(read.json().webhooks[id].secret).toBeUndefined();
  });
});

describe('replay', () => {
  it('sends the same message again as a new delivery, with the same webhook-id', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const { id, secret } = await makeEndpoint(t, cookie, { url: `${receiver.base}/replayed` });
    const first = (await api.post(`/v2/webhooks/${id}/test`, cookie, undefined)).json().webhookDelivery;
    await eventually(() => expect(at('/replayed')).toHaveLength(1));
    const res = await api.post(`/v2/webhooks/${id}/deliveries/${first.id}/replay`, cookie, undefined);
    expect(res.statusCode).toBe(202);
    const replay = res.json().webhookDelivery;
    expect(replay).toMatchObject({ messageId: first.messageId, replayOf: first.id, status: 'pending' });
    expect(replay.id).not.toBe(first.id);
    await eventually(() => expect(at('/replayed')).toHaveLength(2));
    const [a, b] = at('/replayed');
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    expect(b!.body).toBe(a!.body);
    expect(verifyWebhook(secret, b!.headers, b!.body)).toMatchObject({ type: 'webhook.test' });
    await eventually(async () => {
      const log = await deliveriesOf(t, cookie, id);
      expect(log.map((d) => [d.id, d.status])).toEqual([
        [replay.id, 'succeeded'],
        [first.id, 'succeeded'],
      ]);
    });
  });
});

describe('what a receiver answers', () => {
  it('never follows a redirect: a 3xx is a failed attempt and its target is never asked', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const { id } = await makeEndpoint(t, cookie, { url: `${receiver.base}/moved` });
    receiver.answer = (request) =>
      request.path === '/moved'
        ? { status: 307, headers: { location: `${receiver.base}/elsewhere` } }
        : { status: 200 };
    await api.post(`/v2/webhooks/${id}/test`, cookie, undefined);
    await eventually(async () => expect((await deliveriesOf(t, cookie, id))[0]!.attemptCount).toBeGreaterThan(1));
    expect(at('/elsewhere')).toHaveLength(0);
    expect((await deliveriesOf(t, cookie, id))[0]!.attempts[0]!.statusCode).toBe(307);
  });

  it('keeps at most 1 KiB of an answer, and reads a large one no further than the cap', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const { id } = await makeEndpoint(t, cookie, { url: `${receiver.base}/chatty` });
    const big = 'é'.repeat(WEBHOOK_LIMITS.responseReadBytes); // twice the cap in bytes
    receiver.answer = (request) => (request.path === '/chatty' ? { status: 200, body: big } : { status: 200 });
    await api.post(`/v2/webhooks/${id}/test`, cookie, undefined);
    await eventually(async () => expect((await deliveriesOf(t, cookie, id))[0]!.status).toBe('succeeded'));
    const excerpt = (await deliveriesOf(t, cookie, id))[0]!.attempts[0]!.responseExcerpt;
    expect(Buffer.byteLength(excerpt)).toBe(WEBHOOK_LIMITS.responseExcerptBytes);
    expect(excerpt).toBe('é'.repeat(WEBHOOK_LIMITS.responseExcerptBytes / 2));
  });

  it('gives up on a receiver that does not answer within WEBHOOK_TIMEOUT_MS, and tries again', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const { id } = await makeEndpoint(t, cookie, { url: `${receiver.base}/silent` });
    receiver.answer = (request, n) =>
      request.path === '/silent' && n === 0 ? { status: 200, hang: true } : { status: 204 };
    await api.post(`/v2/webhooks/${id}/test`, cookie, undefined);
    await eventually(async () => expect((await deliveriesOf(t, cookie, id))[0]!.status).toBe('succeeded'));
    const [logged] = await deliveriesOf(t, cookie, id);
    expect(logged!.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [null, 'No answer within 1000 ms.'],
      [204, null],
    ]);
  });

  it('records a refused connection as a failed attempt with the reason', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const { id } = await makeEndpoint(t, cookie, { url: 'http://127.0.0.1:9/closed' });
    await api.post(`/v2/webhooks/${id}/test`, cookie, undefined);
    await eventually(async () => expect((await deliveriesOf(t, cookie, id))[0]!.status).toBe('failed'));
    const [logged] = await deliveriesOf(t, cookie, id);
    expect(logged!.attempts[0]).toMatchObject({ statusCode: null, error: 'The connection was refused.' });
  });
});
