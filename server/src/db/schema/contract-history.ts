/**
 * A contract's history (issue 19, decision 0033): one row per creation, change or deletion, with who made it and
 * each changed field's value before and after. Rows outlive their contract (no foreign key), so a deleted
 * contract's history stays readable to staff.
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const contractChanges = pgTable(
  'contract_changes',
  {
    id: serial('id').primaryKey(),
    contractId: integer('contract_id').notNull(),
    organizationId: integer('organization_id').notNull(),
    /** Who made the change; null when not made by a signed-in user. */
    userId: integer('user_id'),
    /** created, updated or deleted */
    action: text('action').notNull(),
    changes: jsonb('changes')
      .$type<Record<string, { from: unknown; to: unknown }>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contract_changes_contract_idx').on(t.contractId, t.at)],
);
