/**
 * The outbox's only way in (decision 0066). A feature that causes an event calls enqueueWebhookEvent with the
 * transaction that makes the change: the message and its deliveries commit with the change or not at all, so an
 * event exists exactly when the change does, and a worker on any process sends it afterwards.
 *
 *   await database.transaction(async (tx) => {
 *     ...the change...
 *     await enqueueWebhookEvent(tx, { organizationId, type: 'job.completed', data: { jobId, rows } });
 *   });
 *   app.webhooks.kick(); // optional: sends now rather than at the next poll (at most a second later)
 */
import { WEBHOOK_LIMITS, type WebhookEvent, type WebhookEventType } from '@tessera/common/webhooks';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { newMessageId } from './signing';

export interface WebhookEventInput {
  organizationId: number;
  type: WebhookEventType;
  /** The event's `data`: plain JSON. No secret; personal data only where the event is about a person. */
  data: unknown;
  /** When it happened (the body's `timestamp`); now by default. */
  at?: Date;
  /** Only to this endpoint, whatever it subscribes to (a test event); by default every enabled subscriber. */
  endpointId?: number;
}

export interface Enqueued {
  /** The webhook-id of the message. */
  messageId: string;
  deliveryIds: number[];
}

type Rows<T> = { rows: T[] };

/**
 * Writes one message and a delivery to each enabled endpoint of the organization that takes its type (or to the one
 * endpoint named), in `tx`. Null when no endpoint takes it: nothing is written.
 */
export async function enqueueWebhookEvent(tx: Executor, input: WebhookEventInput): Promise<Enqueued | null> {
  const event: WebhookEvent = { type: input.type, timestamp: (input.at ?? new Date()).toISOString(), data: input.data };
  const payload = JSON.stringify(event);
  if (Buffer.byteLength(payload) > WEBHOOK_LIMITS.payloadMaxBytes) {
    throw new Error(`A ${input.type} event of ${Buffer.byteLength(payload)} bytes is over the webhook body limit.`);
  }
  const messageId = newMessageId();
  const target = input.endpointId === undefined ? sql`${input.type} = any(e.events)` : sql`e.id = ${input.endpointId}`;
  const result = (await tx.execute(sql`
    with targets as (
      select e.id from webhook_endpoints e
      where e.organization_id = ${input.organizationId} and e.enabled and ${target}
    ), message as (
      insert into webhook_messages (public_id, organization_id, event_type, payload)
      select ${messageId}, ${input.organizationId}, ${input.type}, ${payload}
      where exists (select 1 from targets)
      returning id
    )
    insert into webhook_deliveries (endpoint_id, message_id)
    select t.id, m.id from targets t cross join message m
    returning id`)) as unknown as Rows<{ id: number | string }>;
  if (result.rows.length === 0) return null;
  return { messageId, deliveryIds: result.rows.map((r) => Number(r.id)) };
}
