/**
 * The delivery log (decision 0066): an endpoint's deliveries newest first, each with its message's id and type and
 * every attempt, a page at a time by keyset (an opaque `after` holding the last id shown), so a page costs the same
 * however deep it is; and a replay, a new delivery of the same message (the same webhook-id) to the same endpoint.
 */
import {
  WEBHOOK_MESSAGES,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookDeliveryStatus,
  type WebhookEventType,
} from '@tessera/common/webhooks';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { BadRequest } from '../../http/errors';

type Rows<T> = { rows: T[] };
type Time = Date | string;
const iso = (t: Time) => new Date(t).toISOString();
const isoOrNull = (t: Time | null) => (t === null ? null : iso(t));

interface DeliveryRow {
  id: number | string;
  endpoint_id: number;
  public_id: string;
  event_type: string;
  status: string;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_attempt_at: Time | null;
  next_attempt_at: Time | null;
  replay_of: number | string | null;
  created_at: Time;
  attempts_log: string | RawAttempt[];
}

interface RawAttempt {
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string;
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  const raw = typeof row.attempts_log === 'string' ? (JSON.parse(row.attempts_log) as RawAttempt[]) : row.attempts_log;
  const attempts: WebhookAttempt[] = raw.map((a) => ({ ...a, at: iso(a.at) }));
  return {
    id: Number(row.id),
    endpointId: row.endpoint_id,
    messageId: row.public_id,
    eventType: row.event_type as WebhookEventType,
    status: row.status as WebhookDeliveryStatus,
    attemptCount: attempts.length,
    lastStatusCode: row.last_status_code,
    lastLatencyMs: row.last_latency_ms,
    lastAttemptAt: isoOrNull(row.last_attempt_at),
    nextAttemptAt: row.status === 'pending' ? isoOrNull(row.next_attempt_at) : null,
    replayOf: row.replay_of === null ? null : Number(row.replay_of),
    createdAt: iso(row.created_at),
    attempts,
  };
}

const SELECT = sql`select d.id, d.endpoint_id, m.public_id, m.event_type, d.status, d.last_status_code,
  d.last_latency_ms, d.last_attempt_at, d.next_attempt_at, d.replay_of, d.created_at,
  coalesce((select json_agg(json_build_object('attempt', a.attempt, 'at', a.at, 'statusCode', a.status_code,
      'error', a.error, 'latencyMs', a.latency_ms, 'responseExcerpt', a.response_excerpt) order by a.attempt)
    from webhook_attempts a where a.delivery_id = d.id), '[]'::json) as attempts_log
  from webhook_deliveries d join webhook_messages m on m.id = d.message_id`;

const encodeCursor = (id: number) => Buffer.from(`d${id}`).toString('base64url');

function decodeCursor(text: string): number {
  const match = /^d(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  const id = match ? Number(match[1]) : 0;
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new BadRequest(WEBHOOK_MESSAGES.cursor, [{ path: 'querystring.after', message: WEBHOOK_MESSAGES.cursor }]);
  }
  return id;
}

export interface DeliveryQuery {
  pageSize: number;
  after?: string;
  status?: WebhookDeliveryStatus;
}

export async function deliveryPage(
  db: Executor,
  endpointId: number,
  query: DeliveryQuery,
): Promise<WebhookDeliveryPage> {
  const conditions = [sql`d.endpoint_id = ${endpointId}`];
  if (query.status) conditions.push(sql`d.status = ${query.status}`);
  if (query.after) conditions.push(sql`d.id < ${decodeCursor(query.after)}`);
  const result = (await db.execute(
    sql`${SELECT} where ${sql.join(conditions, sql` and `)} order by d.id desc limit ${query.pageSize + 1}`,
  )) as unknown as Rows<DeliveryRow>;
  const deliveries = result.rows.slice(0, query.pageSize).map(toDelivery);
  const last = deliveries.at(-1);
  const next = result.rows.length > query.pageSize && last ? encodeCursor(last.id) : null;
  return { endpointId, deliveries, next };
}

export async function findDelivery(db: Executor, endpointId: number, id: number): Promise<WebhookDelivery | null> {
  const result = (await db.execute(
    sql`${SELECT} where d.endpoint_id = ${endpointId} and d.id = ${id}`,
  )) as unknown as Rows<DeliveryRow>;
  const row = result.rows[0];
  return row ? toDelivery(row) : null;
}

/** A new pending delivery of the message of delivery `id` to the same endpoint; null when there is no such one. */
export async function insertReplay(db: Executor, endpointId: number, id: number): Promise<number | null> {
  const result = (await db.execute(sql`
    insert into webhook_deliveries (endpoint_id, message_id, replay_of)
    select endpoint_id, message_id, id from webhook_deliveries where endpoint_id = ${endpointId} and id = ${id}
    returning id`)) as unknown as Rows<{ id: number | string }>;
  const row = result.rows[0];
  return row ? Number(row.id) : null;
}
