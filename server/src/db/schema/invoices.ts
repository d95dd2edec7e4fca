/**
 * Invoices (issue 19, decision 0034): one per organization and calendar month (UTC), its lines one per price of
 * each contract in force during the month. Money is exact numeric, read as decimal strings. Numbers come from
 * the counter row, taken in the transaction that issues, so they have no gaps.
 */
import { bigint, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

const money = (name: string) => numeric(name, { precision: 24, scale: 6 }).notNull().default('0');

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** 'YYYY-MM'. */
    month: text('month').notNull(),
    number: integer('number'),
    status: text('status').notNull().default('issued'),
    total: money('total'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('invoices_organization_month_idx').on(t.organizationId, t.month),
    uniqueIndex('invoices_number_idx').on(t.number),
    index('invoices_month_idx').on(t.month),
  ],
);

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: serial('id').primaryKey(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    /** No foreign key: a line keeps naming the contract it was priced by after the contract is deleted. */
    contractId: integer('contract_id').notNull(),
    /** 'request', 'identity', or a record-type group such as 'emails'. */
    price: text('price').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    unitPrice: numeric('unit_price', { precision: 14, scale: 6 }).notNull(),
    amount: money('amount'),
  },
  (t) => [index('invoice_lines_invoice_idx').on(t.invoiceId)],
);

/** The last invoice number given; one row, locked by each close and issue. */
export const invoiceCounter = pgTable('invoice_counter', {
  id: integer('id').primaryKey(),
  last: integer('last').notNull().default(0),
});
