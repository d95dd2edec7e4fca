/**
 * Billing of change events (decision 0067): when a delivery of an `identity.changed` event succeeds, the webhook
 * worker runs this in the transaction recording the success, and it writes one usage row on the path
 * `/subscriptions/event` ("Change event"), priced by the contract in force's `pricePerEvent`, for the subscription's
 * user and key. Its request id is the delivery's (a replay's, the delivery it replays): a usage row's request id is
 * unique per user, so a redelivery or a replay is never billed twice.
 */
import { type Purpose, purposeRefusal } from '@tessera/common/purposes';
import { SUBSCRIPTION_EVENT_USAGE_PATH } from '@tessera/common/usage';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { PaymentRequired } from '../../http/errors';
import type { Billing } from '../contracts/billing';
import type { DeliveredEvent } from '../webhooks/worker';
import { contractTerms } from './repo';

/**
 * Whether an organization's events may go out now: billing would admit a lookup of one of its members (a contract in
 * force, not suspended, its monthly limit not spent) for the subscription's permissible purpose (issue 34: a contract
 * that lists purposes no longer allowing it, or one made with none, stops its events). Staff rank is not asked for:
 * their bypass is for their own calls.
 */
export async function mayServe(billing: Billing, organizationId: number, purpose: string | null): Promise<boolean> {
  try {
    const terms = await billing.admit({ organizationId, role: 'user' });
    return purposeRefusal(terms?.purposes, purpose as Purpose | null) === null;
  } catch (error) {
    if (error instanceof PaymentRequired) return false;
    throw error;
  }
}

/** The request id of a delivery's usage row. */
export const eventRequestId = (deliveryId: number) => `webhook-delivery-${deliveryId}`;

export async function billDeliveredEvent(tx: Tx, event: DeliveredEvent): Promise<void> {
  const [found] = await rows<{ root: string | number; user_id: number; key_id: string | null }>(
    tx,
    sql`with recursive chain as (
        select id, replay_of from webhook_deliveries where id = ${event.deliveryId}
        union all
        select d.id, d.replay_of from webhook_deliveries d join chain c on d.id = c.replay_of
      ), message as (
        select (payload::json -> 'data' ->> 'subscriptionId')::int as subscription_id
        from webhook_messages where public_id = ${event.messageId}
      )
      select (select id from chain where replay_of is null) as root, s.user_id, s.key_id
      from message m join identity_subscriptions s on s.id = m.subscription_id`,
  );
  if (!found) return; // not an event of a subscription (a test event of this type): nothing to bill
  const terms = await contractTerms(tx, event.organizationId);
  const requestId = eventRequestId(Number(found.root ?? event.deliveryId));
  await tx.execute(sql`
    insert into usage (request_id, user_id, organization_id, key_id, method, path, status, cost)
    select ${requestId}, ${found.user_id}, ${event.organizationId}, ${found.key_id}, 'POST',
      ${SUBSCRIPTION_EVENT_USAGE_PATH}, 200, ${terms?.pricePerEvent ?? '0'}::numeric
    where not exists (select 1 from usage u where u.user_id = ${found.user_id} and u.request_id = ${requestId})
    on conflict (user_id, request_id, month) do nothing`);
}
