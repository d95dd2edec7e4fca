/**
 * API keys (issue 5, decision 0015). The secret is kept as its SHA-256 (what a plain Bearer key is checked against)
 * and, sealed under the server's key-encryption key, for checking signed forms, which need the secret itself.
 * A rotation keeps the previous secret valid until `previous_valid_until`.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { users } from './users';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    organizationId: integer('organization_id').references(() => organizations.id),
    name: text('name').notNull(),
    secretSha256: text('secret_sha256').notNull(),
    secretLastFour: text('secret_last_four').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    previousSha256: text('previous_sha256'),
    previousSealed: text('previous_sealed'),
    previousValidUntil: timestamp('previous_valid_until', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** CIDR ranges the key may be used from; empty: anywhere. */
    ipAllowlist: text('ip_allowlist').array().notNull().default(sql`'{}'::text[]`),
    /** Requests per minute; null: the organization's limit alone. */
    rateLimit: integer('rate_limit'),
    /** Record types the key may receive, within its user's; empty: all of the user's. */
    allowedRecordTypes: text('allowed_record_types').array().notNull().default(sql`'{}'::text[]`),
    /** Accepts the original API's signed form, Bearer {id}{time}{md5(time + secret)}. */
    legacy: boolean('legacy').notNull().default(false),
    /** `live` answers from the identity graph and is metered; `test` from the public synthetic set, free (issue 31). */
    mode: text('mode', { enum: ['live', 'test'] })
      .notNull()
      .default('live'),
    /** The permissible purpose a call names when it names none (issue 34); null: none. */
    defaultPurpose: text('default_purpose'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Revoked: refused everywhere, kept for usage history. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId), index('api_keys_organization_idx').on(t.organizationId)],
);

/** Secrets the server itself needs and every process must share (the key-encryption key when none is configured). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
