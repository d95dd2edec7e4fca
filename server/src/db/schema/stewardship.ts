/**
 * Data stewardship (issue 22, decision 0039): opt-out requests from the public, and the lookup audit trail. The
 * suppressions themselves are in people.ts (the lookups read them there).
 */
import { bigint, bigserial, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * An opt-out asked for on the contact page. Only the SHA-256 of its link's token is kept. The address and phone are
 * held only until the request is confirmed (then cleared: the suppressions hold their hashes) or its link expires
 * (then the retention job deletes the row).
 */
export const optOutRequests = pgTable(
  'opt_out_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    email: text('email'),
    phone: text('phone'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** Suppressions the confirmation added (values and, when they named one person, that person). */
    suppressed: integer('suppressed').notNull().default(0),
  },
  (t) => [index('opt_out_requests_expires_idx').on(t.expiresAt)],
);

/**
 * Partitioned by month of `at` (migration 0028, decision 0047): retention drops whole months.
 * One row per input of every lookup call, written with the call's usage row in the same statement: keyed hashes
 * (HMAC-SHA256, hex) of the input's values, never the values, and the identities returned.
 */
export const lookupAudit = pgTable(
  'lookup_audit',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    requestId: text('request_id').notNull(),
    userId: integer('user_id').notNull(),
    organizationId: integer('organization_id'),
    keyId: text('key_id'),
    method: text('method').notNull(),
    path: text('path').notNull(),
    input: integer('input').notNull(),
    valueHmacs: text('value_hmacs').array().notNull(),
    identityIds: bigint('identity_ids', { mode: 'number' }).array().notNull(),
    /** The permissible purpose the lookup was made for (issue 34); null: none was named. */
    purpose: text('purpose'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.at] }),
    index('lookup_audit_at_idx').on(t.at),
    index('lookup_audit_values_idx').using('gin', t.valueHmacs),
    index('lookup_audit_identities_idx').using('gin', t.identityIds),
  ],
);
