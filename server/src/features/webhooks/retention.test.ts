/**
 * The delivery log's retention (decision 0066 addendum): a message older than the retention whose deliveries have all
 * ended goes, with its deliveries and attempts; one with a delivery still pending stays however old; a recent one
 * stays; batches end when a batch finds fewer than it could take.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookAttempts, webhookDeliveries, webhookMessages } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type TestApp } from '../../test/harness';
import { enqueueWebhookEvent } from './enqueue';
import { pruneWebhookLog } from './retention';
import { organizationWithAdmin } from './test-support';

let t: TestApp;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

const DAY = 86_400_000;

/** A message to one endpoint, made `ageDays` ago, its delivery in `status` (with one attempt when it ended). */
async function message(organizationId: number, ageDays: number, status: 'pending' | 'succeeded' | 'failed') {
  const made = await t.database.transaction((tx) =>
    enqueueWebhookEvent(tx, { organizationId, type: 'identity.changed', data: { ageDays, status } }),
  );
  const deliveryId = made!.deliveryIds[0]!;
  const at = new Date(Date.now() - ageDays * DAY);
  await t.database.db
    .update(webhookMessages)
    .set({ createdAt: at })
    .where(eq(webhookMessages.publicId, made!.messageId));
  await t.database.db.update(webhookDeliveries).set({ status }).where(eq(webhookDeliveries.id, deliveryId));
  if (status !== 'pending') {
    await t.database.db.execute(sql`insert into webhook_attempts (delivery_id, attempt, at, status_code, latency_ms)
      values (${deliveryId}, 1, ${at.toISOString()}::timestamptz, ${status === 'succeeded' ? 200 : 500}, 5)`);
  }
  return { messageId: made!.messageId, deliveryId };
}

describe('the delivery log retention', () => {
  it('deletes ended messages older than the retention, with their deliveries and attempts, and keeps the rest', async () => {
    const { org, cookie } = await organizationWithAdmin(t);
    const created = await api.post('/v2/webhooks', cookie, {
      url: 'https://93.184.215.14/hooks',
      events: ['identity.changed'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const oldSucceeded = await message(org.id, 40, 'succeeded');
    const oldFailed = await message(org.id, 31, 'failed');
    const oldPending = await message(org.id, 40, 'pending');
    const recent = await message(org.id, 5, 'succeeded');

    expect(await pruneWebhookLog(t.database, 30)).toBeGreaterThanOrEqual(2);

    const left = await t.database.db
      .select({ publicId: webhookMessages.publicId })
      .from(webhookMessages)
      .where(
        inArray(
          webhookMessages.publicId,
          [oldSucceeded, oldFailed, oldPending, recent].map((m) => m.messageId),
        ),
      );
    expect(left.map((m) => m.publicId).sort()).toEqual([oldPending.messageId, recent.messageId].sort());
    const gone = [oldSucceeded.deliveryId, oldFailed.deliveryId];
    expect(await t.database.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, gone))).toEqual([]);
    expect(await t.database.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, gone))).toEqual(
      [],
    );
    // Nothing more to delete: a second run finds none of these.
    await pruneWebhookLog(t.database, 30);
    expect(
      await t.database.db
        .select()
        .from(webhookMessages)
        .where(inArray(webhookMessages.publicId, [oldPending.messageId, recent.messageId])),
    ).toHaveLength(2);
  });
});
