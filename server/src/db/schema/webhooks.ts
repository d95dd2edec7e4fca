/**
 * Webhooks (issue 33, decision 0066). An organization's endpoints, with the signing secret sealed under the
 * key-encryption key (decision 0015) and, for a while after a rotation, the previous one. An event is a message
 * (its exact body kept, so every attempt sends the same bytes) and a delivery per endpoint that takes it, written in
 * the transaction of the change that caused it (an outbox); workers claim due deliveries with `for update skip
 * locked` and a lease (`lease_token`, `next_attempt_at` pushed past the lease), and record each attempt.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { users } from './users';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** The event types it takes (WEBHOOK_SUBSCRIBABLE_EVENTS); a test event goes to it whatever this holds. */
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** `manual` (a person switched it off) or `failures` (the run of failed attempts did). */
    disabledReason: text('disabled_reason'),
    /** Attempts failed in a row since the last success; reset by a success and by enabling it again. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousValidUntil: timestamp('previous_valid_until', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_organization_idx').on(t.organizationId)],
);

export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The webhook-id header: `msg_` and random characters. */
    publicId: text('public_id').notNull(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    /** The exact body sent: `{"type", "timestamp", "data"}`. */
    payload: text('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_messages_public_id_key').on(t.publicId),
    index('webhook_messages_organization_idx').on(t.organizationId),
  ],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    /** `pending`, `succeeded` or `failed`. */
    status: text('status').notNull().default('pending'),
    /** Attempts begun (a claim counts one). */
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due (while pending; during a lease, when the lease ends); null once finished. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
    /** The claim under way; a result is recorded only under the token it was claimed with. */
    leaseToken: text('lease_token'),
    lastStatusCode: integer('last_status_code'),
    lastLatencyMs: integer('last_latency_ms'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** The delivery this one replays. */
    replayOf: bigint('replay_of', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_message_idx').on(t.messageId),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    /** 1 for the first. */
    attempt: integer('attempt').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    error: text('error'),
    latencyMs: integer('latency_ms').notNull(),
    /** The start of the answer's body, at most 1 KiB of it. */
    responseExcerpt: text('response_excerpt').notNull().default(''),
  },
  (t) => [uniqueIndex('webhook_attempts_delivery_attempt_key').on(t.deliveryId, t.attempt)],
);
