/**
 * Workers across processes (issue 33, decision 0066): two app instances on one database (on PostgreSQL, each with a
 * pool of its own, as two nodes have) deliver every attempt once; a worker that stopped mid-send leaves its delivery
 * to be sent after the lease, the lost attempt logged as interrupted; and the address is checked again when a
 * connection is made, so a node that may not reach private addresses refuses what another node saved.
 */
import { randomUUID } from 'node:crypto';
import { verifyWebhook } from '@tessera/common/webhook-signature';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type TestApp } from '../../test/harness';
import { claimDue, INTERRUPTED } from './claims';
import { enqueueWebhookEvent } from './enqueue';
import {
  DELIVERING,
  deliveriesOf,
  eventually,
  makeEndpoint,
  type OwnDatabase,
  organizationWithAdmin,
  ownDatabase,
  type Receiver,
  startReceiver,
} from './test-support';

let own: OwnDatabase;
let second: Database;
let receiver: Receiver;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  own = await ownDatabase('webhook_workers');
  second = own.url ? await openDatabase({ url: own.url, dataDir: null, poolSize: 4 }) : own.database;
  receiver = await startReceiver();
  a = await buildTestApp({ database: own.database, env: DELIVERING });
  b = await buildTestApp({ database: second, env: DELIVERING });
});
afterAll(async () => {
  await a?.app.close();
  await b?.app.close();
  if (second && second !== own?.database) await second.close();
  await receiver?.close();
  await own?.drop();
});

describe('two app instances on one database', () => {
  it('deliver each attempt of each event once between them', async () => {
    const { org, cookie } = await organizationWithAdmin(a);
    const { id, secret } = await makeEndpoint(a, cookie, { url: `${receiver.base}/shared`, events: ['job.completed'] });
    // Every message fails its first attempt and succeeds on the second.
    const seen = new Map<string, number>();
    receiver.answer = (request) => {
      if (request.path !== '/shared') return { status: 200 };
      const messageId = String(request.headers['webhook-id']);
      const n = (seen.get(messageId) ?? 0) + 1;
      seen.set(messageId, n);
      return n === 1 ? { status: 500 } : { status: 200 };
    };
    const events = 40;
    const messageIds: string[] = [];
    for (let i = 0; i < events; i++) {
      const enqueued = await (i % 2 ? a : b).database.transaction((tx) =>
        enqueueWebhookEvent(tx, { organizationId: org.id, type: 'job.completed', data: { jobId: i } }),
      );
      messageIds.push(enqueued!.messageId);
      (i % 2 ? a : b).app.webhooks.kick();
    }
    await eventually(() => expect(receiver.received.filter((r) => r.path === '/shared')).toHaveLength(2 * events));
    await eventually(async () => {
      const log = (await consoleClient(() => a.app).get(`/v2/webhooks/${id}/deliveries?pageSize=100`, cookie)).json()
        .webhookDeliveries.deliveries as { status: string }[];
      expect(log.filter((d) => d.status === 'succeeded')).toHaveLength(events);
    });
    expect([...seen.keys()].sort()).toEqual([...messageIds].sort());
    expect([...seen.values()].every((n) => n === 2)).toBe(true);
    const log = await deliveriesOf(a, cookie, id);
    for (const delivery of log)
      expect(delivery.attempts.map((x) => [x.attempt, x.statusCode])).toEqual([
        [1, 500],
        [2, 200],
      ]);
    for (const request of receiver.received.filter((r) => r.path === '/shared')) {
      expect(verifyWebhook(secret, request.headers, request.body)).toMatchObject({ type: 'job.completed' });
    }
  });
});

describe('a worker that stops mid-send', () => {
  it('leaves the delivery to be sent after its lease, the lost attempt logged as interrupted', async () => {
    const { org, cookie } = await organizationWithAdmin(a);
    const { id } = await makeEndpoint(a, cookie, { url: `${receiver.base}/resumed`, events: ['job.completed'] });
    receiver.answer = () => ({ status: 200 });
    // Both workers are told nothing: the claim below, like a node killed after claiming, takes the delivery first.
    await a.app.webhooks.stop();
    await b.app.webhooks.stop();
    await a.database.transaction((tx) =>
      enqueueWebhookEvent(tx, { organizationId: org.id, type: 'job.completed', data: { jobId: 'x' } }),
    );
    const claims = await claimDue(a.database, { limit: 100, leaseMs: 300, token: randomUUID(), maxAttempts: 6 });
    expect(claims.filter((c) => c.endpointId === id)).toHaveLength(1);
    // While the lease holds, no other worker may take it.
    expect(await b.app.webhooks.runOnce()).toBe(0);
    expect(receiver.received.filter((r) => r.path === '/resumed')).toHaveLength(0);

    b.app.webhooks.start();
    await eventually(async () => expect((await deliveriesOf(a, cookie, id))[0]!.status).toBe('succeeded'));
    const [logged] = await deliveriesOf(a, cookie, id);
    expect(logged!.attempts.map((x) => [x.attempt, x.statusCode, x.error])).toEqual([
      [1, null, INTERRUPTED],
      [2, 200, null],
    ]);
    expect(receiver.received.filter((r) => r.path === '/resumed')).toHaveLength(1);
    a.app.webhooks.start();
  });
});

describe('the address is checked again at connect time', () => {
  let strict: TestApp;
  beforeAll(async () => {
    // A node of the same deployment that may not reach private addresses, its worker alone running.
    await a.app.webhooks.stop();
    await b.app.webhooks.stop();
    strict = await buildTestApp({
      database: own.database,
      env: { WEBHOOK_WORKER: 'true', WEBHOOK_RETRY_SCHEDULE: '0', WEBHOOK_TIMEOUT_MS: '2000' },
    });
  });
  afterAll(async () => {
    await strict?.app.close();
    a.app.webhooks.start();
    b.app.webhooks.start();
  });

  it.each([
    ['an address', (base: string) => `${base}/literal`, /^127\.0\.0\.1 is a loopback address: not sent\.$/],
    [
      'a name resolving to one',
      (base: string) => `${base.replace('127.0.0.1', 'localhost')}/named`,
      /^localhost resolves to (127\.0\.0\.1|::1), a loopback address: not sent\.$/,
    ],
  ])('refuses %s it may not reach, sending nothing', async (_, url, error) => {
    const { cookie } = await organizationWithAdmin(a);
    const { id } = await makeEndpoint(a, cookie, { url: url(receiver.base) });
    const before = receiver.received.length;
    await consoleClient(() => a.app).post(`/v2/webhooks/${id}/test`, cookie, undefined);
    await eventually(async () => expect((await deliveriesOf(a, cookie, id))[0]!.status).toBe('failed'));
    const [logged] = await deliveriesOf(a, cookie, id);
    expect(logged!.attempts).toHaveLength(1);
    expect(logged!.attempts[0]!.statusCode).toBeNull();
    expect(logged!.attempts[0]!.error).toMatch(error);
    expect(receiver.received.length).toBe(before);
  });
});
