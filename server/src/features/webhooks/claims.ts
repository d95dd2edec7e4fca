/**
 * The worker's SQL (decision 0066), plain statements in short transactions, so it runs the same through PgBouncer in
 * transaction mode: no advisory lock, no LISTEN, nothing kept on a session.
 *
 * A claim takes due deliveries of enabled endpoints with `for update skip locked` (two workers never take the same
 * row), counts the attempt, stamps a fresh lease token and moves `next_attempt_at` past the lease: the row is then
 * invisible to other claims until the lease ends, and the transaction commits before anything is sent. A result is
 * recorded only under the token it was claimed with. A delivery claimed again while still holding a token was left
 * by a worker that stopped mid-send: that attempt is recorded as interrupted, and the delivery goes on.
 */
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client';
import { audit } from '../audit/record';
import { type EndpointRow, findEndpoint } from './repo';
import type { SealedSecrets } from './signing';

type Rows<T> = { rows: T[] };

export const INTERRUPTED = 'The sending server stopped before the answer was recorded.';

export interface Claimed extends SealedSecrets {
  deliveryId: number;
  token: string;
  /** This attempt's number, 1 for the first. */
  attempt: number;
  endpointId: number;
  organizationId: number;
  url: string;
  messageId: string;
  eventType: string;
  payload: string;
}

interface ClaimRow {
  id: number | string;
  attempts: number;
  lost: boolean;
  endpoint_id: number;
  organization_id: number;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_valid_until: Date | string | null;
  public_id: string;
  event_type: string;
  payload: string;
}

/** Claims up to `limit` due deliveries for `leaseMs`; answers those to send now. */
export async function claimDue(
  database: Database,
  options: { limit: number; leaseMs: number; token: string; maxAttempts: number },
): Promise<Claimed[]> {
  return database.transaction(async (tx) => {
    const claimed = (await tx.execute(sql`
      with due as (
        select d.id, d.lease_token is not null as lost
        from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        where d.status = 'pending' and d.next_attempt_at <= now() and e.enabled
        order by d.next_attempt_at, d.id
        limit ${options.limit}
        for update of d skip locked
      )
      update webhook_deliveries d
      set attempts = d.attempts + 1, lease_token = ${options.token},
        next_attempt_at = now() + ${options.leaseMs} * interval '1 millisecond'
      from due, webhook_endpoints e, webhook_messages m
      where d.id = due.id and e.id = d.endpoint_id and m.id = d.message_id
      returning d.id, d.attempts, due.lost, d.endpoint_id, e.organization_id, e.url, e.secret_sealed,
        e.previous_secret_sealed, e.previous_valid_until, m.public_id, m.event_type, m.payload`)) as unknown as Rows<ClaimRow>;
    const out: Claimed[] = [];
    for (const row of claimed.rows) {
      const id = Number(row.id);
      if (row.lost) {
        await tx.execute(sql`
          insert into webhook_attempts (delivery_id, attempt, error, latency_ms)
          values (${id}, ${row.attempts - 1}, ${INTERRUPTED}, 0) on conflict do nothing`);
        if (row.attempts - 1 >= options.maxAttempts) {
          await tx.execute(sql`update webhook_deliveries set status = 'failed', next_attempt_at = null,
            lease_token = null, attempts = attempts - 1 where id = ${id}`);
          continue;
        }
      }
      out.push({
        deliveryId: id,
        token: options.token,
        attempt: row.attempts,
        endpointId: row.endpoint_id,
        organizationId: row.organization_id,
        url: row.url,
        secretSealed: row.secret_sealed,
        previousSecretSealed: row.previous_secret_sealed,
        previousValidUntil: row.previous_valid_until === null ? null : new Date(row.previous_valid_until),
        messageId: row.public_id,
        eventType: row.event_type,
        payload: row.payload,
      });
    }
    return out;
  });
}

export interface Outcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  excerpt: string;
  /** The wait before the next attempt; null: this was the last (or it succeeded). */
  retryInMs: number | null;
}

export interface Recorded {
  /** False when the lease was lost (the delivery was claimed again, or its endpoint deleted): nothing recorded. */
  recorded: boolean;
  /** The endpoint when this failure disabled it. */
  disabled: EndpointRow | null;
}

/**
 * Records an attempt's outcome, and the endpoint's run of failures (disabling it at `disableAfter`). On a success,
 * `delivered` runs in the same transaction: what it writes (a usage row, say) commits exactly when the success does.
 */
export async function recordOutcome(
  database: Database,
  claim: Pick<Claimed, 'deliveryId' | 'token' | 'attempt' | 'endpointId'>,
  outcome: Outcome,
  disableAfter: number,
  delivered?: (tx: Tx) => Promise<void>,
): Promise<Recorded> {
  return database.transaction(async (tx) => {
    // The endpoint row first, as its deletion locks it before its deliveries: the same order, so no deadlock.
    const locked = (await tx.execute(
      sql`select id from webhook_endpoints where id = ${claim.endpointId} for no key update`,
    )) as unknown as Rows<{ id: number }>;
    if (locked.rows.length === 0) return { recorded: false, disabled: null };
    const status = outcome.ok ? 'succeeded' : outcome.retryInMs === null ? 'failed' : 'pending';
    const next =
      outcome.retryInMs === null ? sql`null` : sql`now() + ${Math.round(outcome.retryInMs)} * interval '1 millisecond'`;
    const updated = (await tx.execute(sql`
      update webhook_deliveries set status = ${status}, next_attempt_at = ${next}, lease_token = null,
        last_status_code = ${outcome.statusCode}, last_latency_ms = ${outcome.latencyMs}, last_attempt_at = now()
      where id = ${claim.deliveryId} and lease_token = ${claim.token}
      returning id`)) as unknown as Rows<{ id: number }>;
    if (updated.rows.length === 0) return { recorded: false, disabled: null };
    await tx.execute(sql`
      insert into webhook_attempts (delivery_id, attempt, status_code, error, latency_ms, response_excerpt)
      values (${claim.deliveryId}, ${claim.attempt}, ${outcome.statusCode}, ${outcome.error}, ${outcome.latencyMs},
        ${outcome.excerpt})
      on conflict do nothing`);
    if (outcome.ok && delivered) await delivered(tx);
    return { recorded: true, disabled: await countRun(tx, claim.endpointId, outcome.ok, disableAfter) };
  });
}

/** Resets or extends the endpoint's run of failures; the endpoint when this failure disabled it. */
async function countRun(tx: Tx, endpointId: number, ok: boolean, disableAfter: number): Promise<EndpointRow | null> {
  if (ok) {
    await tx.execute(
      sql`update webhook_endpoints set consecutive_failures = 0 where id = ${endpointId} and consecutive_failures > 0`,
    );
    return null;
  }
  const run = (await tx.execute(sql`
    update webhook_endpoints set consecutive_failures = consecutive_failures + 1 where id = ${endpointId}
    returning consecutive_failures, enabled`)) as unknown as Rows<{ consecutive_failures: number; enabled: boolean }>;
  const row = run.rows[0];
  if (!row?.enabled || row.consecutive_failures < disableAfter) return null;
  const turned = (await tx.execute(sql`
    update webhook_endpoints set enabled = false, disabled_at = now(), disabled_reason = 'failures', updated_at = now()
    where id = ${endpointId} and enabled returning id`)) as unknown as Rows<{ id: number }>;
  if (turned.rows.length === 0) return null;
  const endpoint = await findEndpoint(tx, endpointId);
  await audit(tx, {
    action: 'webhook.disable',
    targetType: 'webhook',
    targetId: endpointId,
    detail: {
      organizationId: endpoint?.organizationId,
      reason: 'failures',
      consecutiveFailures: row.consecutive_failures,
    },
  });
  return endpoint;
}

/** Milliseconds until the next delivery of an enabled endpoint is due (0 if one is), or null when none waits. */
export async function untilNextDue(database: Database): Promise<number | null> {
  const [row] = await database.query<{ ms: number | string | null }>(
    `select greatest(0, extract(epoch from (min(d.next_attempt_at) - now())) * 1000)::float8 as ms
     from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
     where d.status = 'pending' and e.enabled`,
  );
  return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
}
