/**
 * Invoices (issue 19, decision 0034): one per organization and calendar month (UTC), its lines one per price of
 * each contract in force during the month. Money is exact numeric, read as decimal strings. Numbers come from
 * the counter row, taken in the transaction that issues, so they have no gaps.
 */
import type { BillingParty } from '@tessera/common/billing';
import {
  bigint,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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
    /** Decision 0064: the lines' sum, the tax rate (percent; null: none) and tax; total = subtotal + tax. */
    subtotal: money('subtotal'),
    taxRate: numeric('tax_rate', { precision: 7, scale: 3 }),
    tax: money('tax'),
    total: money('total'),
    currency: text('currency').notNull().default('USD'),
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** The organization's billing details as they stood at issue (an issued invoice never changes). */
    buyer: jsonb('buyer').$type<BillingParty>(),
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

/**
 * An organization's billing details (decision 0064): who its invoices are made out to, edited by its
 * administrators; the tax rate (percent) is set by System Administrators only.
 */
export const billingDetails = pgTable('billing_details', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  legalName: text('legal_name').notNull(),
  street: text('street').notNull(),
  city: text('city').notNull(),
  state: text('state').notNull(),
  zip: text('zip').notNull(),
  taxId: text('tax_id'),
  email: text('email'),
  taxRate: numeric('tax_rate', { precision: 7, scale: 3 }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The last invoice number given; one row, locked by each close and issue. */
export const invoiceCounter = pgTable('invoice_counter', {
  id: integer('id').primaryKey(),
  last: integer('last').notNull().default(0),
});
