/**
 * Change subscriptions (issue 33 item 2, decision 0067). A subscription names one identity (found by id, or by an
 * input kept normalized so it can be resolved again) for an organization's user or key; deleting one stamps
 * `deleted_at`, so an event already made can still be billed to it. `identity_changes` holds the old record of each
 * subscribed identity a write changed, caught in the writing transaction, until the notifier makes its events
 * (claimed with `for update skip locked` and a lease).
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, json, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { users } from './users';

export const identitySubscriptions = pgTable(
  'identity_subscriptions',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The API key that subscribed; null for a console user. */
    keyId: text('key_id'),
    identityId: bigint('identity_id', { mode: 'number' }).notNull(),
    /** The input the identity was found by (SUBSCRIPTION_INPUTS), normalized; null for a subscription by id. */
    inputKind: text('input_kind'),
    inputValue: text('input_value'),
    templateId: integer('template_id').notNull(),
    /** The permissible purpose it was made for (issue 34); null: none named, none required then. */
    purpose: text('purpose'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('identity_subscriptions_identity_idx').on(t.identityId).where(sql`${t.deletedAt} is null`),
    index('identity_subscriptions_organization_idx').on(t.organizationId, t.id),
  ],
);

export const identityChanges = pgTable(
  'identity_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    identityId: bigint('identity_id', { mode: 'number' }).notNull(),
    /** The stored record before the change; null when none was stored. */
    oldRecord: json('old_record'),
    /** `import` (a write of the graph) or `suppression` (a change of the suppression list). */
    cause: text('cause').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    leaseToken: text('lease_token'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
  },
  (t) => [index('identity_changes_identity_idx').on(t.identityId), index('identity_changes_at_idx').on(t.at)],
);
