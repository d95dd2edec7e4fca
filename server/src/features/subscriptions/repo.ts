/** SQL of change subscriptions (decision 0067): made under the contract's limit, listed, read, deleted (stamped). */
import type { Subscription, SubscriptionInput } from '@tessera/common/subscriptions';
import { SUBSCRIPTION_LIMITS } from '@tessera/common/subscriptions';
import { sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { rows } from '../../db/rows';

export interface SubscriptionRow {
  id: number;
  organization_id: number;
  user_id: number;
  key_id: string | null;
  identity_id: number | string;
  input_kind: string | null;
  input_value: string | null;
  template_id: number;
  created_at: Date | string;
}

export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    organizationId: row.organization_id,
    userId: row.user_id,
    keyId: row.key_id,
    identityId: Number(row.identity_id),
    input:
      row.input_kind && row.input_value !== null
        ? { kind: row.input_kind as SubscriptionInput, value: row.input_value }
        : null,
    templateId: row.template_id,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

const COLUMNS = sql.raw(
  'id, organization_id, user_id, key_id, identity_id, input_kind, input_value, template_id, created_at',
);

/**
 * The organization's current contract, chosen as billing chooses it (contracts/billing.ts): its subscription limit,
 * and its event price while it is in force (active, started and not ended), else nothing: an event delivered after
 * the contract ended or was suspended is not billed.
 */
export async function contractTerms(
  db: Executor,
  organizationId: number,
): Promise<{ pricePerEvent: string; subscriptionLimit: number | null } | null> {
  const [row] = await rows<{ price_per_event: string; subscription_limit: number | null }>(
    db,
    sql`select case when status = 'active' and starts_at <= now() and ends_at > now() then price_per_event else 0 end
        ::text as price_per_event, subscription_limit from contracts
      where organization_id = ${organizationId}
      order by (starts_at <= now()) desc, case when starts_at <= now() then starts_at end desc nulls last, starts_at,
        id desc
      limit 1`,
  );
  return row ? { pricePerEvent: row.price_per_event, subscriptionLimit: row.subscription_limit } : null;
}

/** How many live subscriptions the organization holds. */
export async function liveSubscriptions(db: Executor, organizationId: number): Promise<number> {
  const [row] = await rows<{ live: number }>(
    db,
    sql`select count(*)::int as live from identity_subscriptions
      where organization_id = ${organizationId} and deleted_at is null`,
  );
  return row?.live ?? 0;
}

/** A subscription as made: the API's without what the database gives it. */
export type NewSubscription = Pick<
  Subscription,
  'organizationId' | 'userId' | 'keyId' | 'identityId' | 'input' | 'templateId'
> & { purpose: string | null };

/**
 * Makes a subscription unless the organization holds `limit` live ones already (null: no limit): the organization's
 * row is locked first, so two subscriptions made at once cannot both take the last place. Null when over the limit.
 */
export async function insertSubscription(
  tx: Tx,
  item: NewSubscription,
  limit: number | null,
): Promise<SubscriptionRow | null> {
  await tx.execute(sql`select id from organizations where id = ${item.organizationId} for no key update`);
  if (limit !== null) {
    const [count] = await rows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from identity_subscriptions
        where organization_id = ${item.organizationId} and deleted_at is null`,
    );
    if ((count?.n ?? 0) >= limit) return null;
  }
  const [row] = await rows<SubscriptionRow>(
    tx,
    sql`insert into identity_subscriptions
      (organization_id, user_id, key_id, identity_id, input_kind, input_value, template_id, purpose)
      values (${item.organizationId}, ${item.userId}, ${item.keyId}, ${item.identityId}, ${item.input?.kind ?? null},
        ${item.input?.value ?? null}, ${item.templateId}, ${item.purpose})
      returning ${COLUMNS}`,
  );
  return row!;
}

/** A page of the organization's live subscriptions, newest first, before the id `before` when given. */
export async function listSubscriptions(
  db: Executor,
  organizationId: number,
  before: number | null,
): Promise<SubscriptionRow[]> {
  return rows<SubscriptionRow>(
    db,
    sql`select ${COLUMNS} from identity_subscriptions
      where organization_id = ${organizationId} and deleted_at is null
        ${before === null ? sql`` : sql`and id < ${before}`}
      order by id desc limit ${SUBSCRIPTION_LIMITS.page}`,
  );
}

/** A live subscription of the organization, or null (another organization's is as unknown as a missing one). */
export async function findSubscription(
  db: Executor,
  organizationId: number,
  id: number,
): Promise<SubscriptionRow | null> {
  const [row] = await rows<SubscriptionRow>(
    db,
    sql`select ${COLUMNS} from identity_subscriptions
      where id = ${id} and organization_id = ${organizationId} and deleted_at is null`,
  );
  return row ?? null;
}

/** Stamps a live subscription of the organization deleted; false when there was none. */
export async function deleteSubscription(db: Executor, organizationId: number, id: number): Promise<boolean> {
  const gone = await rows<{ id: number }>(
    db,
    sql`update identity_subscriptions set deleted_at = now()
      where id = ${id} and organization_id = ${organizationId} and deleted_at is null returning id`,
  );
  return gone.length > 0;
}
