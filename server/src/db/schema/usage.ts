/**
 * Usage (issue 4 hands every lookup's metrics here; issue 5 adds cost, group commit and rollups): one row per
 * lookup call, with the spec §3 metrics it produced. Exactly once by request id.
 */

import { CALL_METRICS, type CallMetric, metricColumn } from '@tessera/common/usage';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  numeric,
  pgTable,
  pgView,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const metric = (name: string) => integer(name).notNull().default(0);

/** A column for each spec §3 metric, named in snake case (identitiesWithEmails: identities_with_emails). */
function columnsOf<C>(names: readonly CallMetric[], column: (name: string) => C): Record<CallMetric, C> {
  return Object.fromEntries(names.map((n) => [n, column(metricColumn(n))])) as Record<CallMetric, C>;
}

/**
 * Partitioned by month (`month`, the UTC month of `at`; migration 0028, decision 0047): retention drops whole
 * months. A request id is unique within its month; the metering statement also looks one month back for the calls
 * of a month's first hour, so a retry across the turn of a month is still counted once.
 */
export const usage = pgTable(
  'usage',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    month: date('month', { mode: 'string' })
      .notNull()
      .default(sql`(date_trunc('month', now() at time zone 'UTC'))::date`),
    requestId: text('request_id').notNull(),
    userId: integer('user_id').notNull(),
    organizationId: integer('organization_id'),
    /** The API key used, or null for a console session (the playground). */
    keyId: text('key_id'),
    method: text('method').notNull(),
    /** The endpoint, e.g. '/byEmail'. */
    path: text('path').notNull(),
    status: integer('status').notNull(),
    ...columnsOf(CALL_METRICS, metric),
    /** Dollars, priced by the organization's contract when the call was served. */
    cost: numeric('cost', { precision: 16, scale: 6, mode: 'number' }).notNull().default(0),
    /**
     * The writing transaction's id (xid8 as a number): the rollup aggregator counts the rows of transactions that
     * have ended, below every snapshot's xmin, once each (decision 0045). Null on rows counted before it existed.
     */
    txid: bigint('txid', { mode: 'number' }).default(sql`(pg_current_xact_id()::text::bigint)`),
    /**
     * SHA-256 of what was asked (method, URL, body) and by whom: a request id sent again with the same fingerprint is
     * a retry, answered and not billed again; with another it is another request (decision 0046).
     */
    requestHash: text('request_hash'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.month] }),
    /** A request id is its caller's: another user's id never collides (decision 0046). */
    uniqueIndex('usage_request_idx').on(t.userId, t.requestId, t.month),
    /** The tail not yet aggregated (usage_tail()). */
    index('usage_txid_idx').on(t.txid),
    index('usage_organization_at_idx').on(t.organizationId, t.at),
    index('usage_user_at_idx').on(t.userId, t.at),
    /** The retention job's oldest rows first (decision 0029); appended at its right edge, as rows come in time order. */
    index('usage_at_idx').on(t.at),
  ],
);

const total = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/**
 * Usage summed by hour and by day (UTC) for fast charts, kept current by the same statement that writes the
 * usage rows. No organization is 0 and no key is '' here, so the key can be a primary key. Buckets 'hour' and
 * 'day' hold every key, method and path apart; 'hour-user' and 'day-user' hold each user's calls together (key,
 * method and path '*'), so a report without those filters reads a row per user and hour rather than dozens.
 */
export const usageRollups = pgTable(
  'usage_rollups',
  {
    bucket: text('bucket').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    organizationId: integer('organization_id').notNull(),
    userId: integer('user_id').notNull(),
    keyId: text('key_id').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    requests: total('requests'),
    ...columnsOf(CALL_METRICS, total),
    cost: numeric('cost', { precision: 18, scale: 6, mode: 'number' }).notNull().default(0),
    /** The latest call in the bucket, to the microsecond (a key's "last used"); null for rows rolled up before 0033. */
    lastAt: timestamp('last_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.bucket, t.at, t.organizationId, t.userId, t.keyId, t.method, t.path] }),
    index('usage_rollups_organization_idx').on(t.organizationId, t.bucket, t.at),
    /** A key's last use and calls this month (the console's key list) without scanning usage. */
    index('usage_rollups_key_idx').on(t.keyId, t.bucket, t.at),
    /** A user's usage reports (issue 16) without reading their organization's. */
    index('usage_rollups_user_idx').on(t.userId, t.bucket, t.at),
  ],
);

/**
 * How far the rollups go: every usage row whose txid is below `txid` is in them, every one at or above is not (the
 * tail). One row, moved only by the aggregator, in the transaction that adds to the rollups (decision 0045).
 */
export const usageRollupWatermark = pgTable('usage_rollup_watermark', {
  id: integer('id').primaryKey(),
  txid: bigint('txid', { mode: 'number' }).notNull(),
});

/**
 * What every reader of totals reads (migration 0026, decision 0045): the rollups plus the usage rows not yet in them,
 * each as rollup rows of one request, in one snapshot. Not managed by drizzle-kit (`existing`).
 */
export const usageTotals = pgView('usage_totals', {
  bucket: text('bucket').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  organizationId: integer('organization_id').notNull(),
  userId: integer('user_id').notNull(),
  keyId: text('key_id').notNull(),
  method: text('method').notNull(),
  path: text('path').notNull(),
  requests: total('requests'),
  ...columnsOf(CALL_METRICS, total),
  cost: numeric('cost', { precision: 18, scale: 6, mode: 'number' }).notNull(),
  /** The latest call in the bucket (a tail row's own time); null for rollup rows made before migration 0033. */
  lastAt: timestamp('last_at', { withTimezone: true }),
}).existing();
