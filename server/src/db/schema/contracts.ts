/**
 * Contracts (issue 5): an organization's prices, monthly spending limit and organization-wide rate limit. A
 * contract is in force while active and between its start and end; the latest started one wins.
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

const price = (name: string) => numeric(name, { precision: 14, scale: 6, mode: 'number' }).notNull().default(0);

export const contracts = pgTable(
  'contracts',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull().default(''),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('active'),
    pricePerRequest: price('price_per_request'),
    pricePerIdentity: price('price_per_identity'),
    groupPrices: jsonb('group_prices').$type<Partial<Record<string, number>>>().notNull().default(sql`'{}'::jsonb`),
    monthlyLimit: numeric('monthly_limit', { precision: 14, scale: 2, mode: 'number' }),
    rateLimit: integer('rate_limit'),
    pricePerEvent: price('price_per_event'),
    subscriptionLimit: integer('subscription_limit'),
    /** Permissible purposes its lookups may name (issue 34, common/purposes.ts); null or empty: none is required. */
    purposes: text('purposes').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contracts_organization_idx').on(t.organizationId, t.startsAt)],
);
