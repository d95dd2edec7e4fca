/** Invoices (issue 19, decisions 0034 and 0064): statuses, their allowed changes, months, and the messages. */
import { BILLING_MESSAGES, type BillingParty } from './billing';

export const INVOICE_STATUSES = ['draft', 'issued', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The status changes a super+ may make: an issued invoice is paid or voided; a paid one may be voided. */
export const INVOICE_ACTIONS = { pay: 'paid', void: 'void' } as const;
export type InvoiceAction = keyof typeof INVOICE_ACTIONS;
export const INVOICE_ACTION_FROM: Record<InvoiceAction, readonly InvoiceStatus[]> = {
  pay: ['issued'],
  void: ['issued', 'paid'],
};

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Money as a decimal string with 6 places, never a float. */
export interface InvoiceLine {
  contractId: number;
  price: string;
  periodStart: string;
  periodEnd: string;
  quantity: number;
  unitPrice: string;
  amount: string;
}

export interface Invoice {
  id: number;
  organizationId: number;
  organizationName: string;
  month: string;
  number: number | null;
  status: InvoiceStatus;
  /** Sum of the lines' amounts. */
  subtotal: string;
  /** Percent the subtotal is taxed at, or null: no tax applies. */
  taxRate: string | null;
  tax: string;
  /** Subtotal plus tax. */
  total: string;
  currency: string;
  issuedAt: string | null;
  /** When payment is due (issue date plus the seller's payment days). */
  dueAt: string | null;
  /** Who the invoice is made out to, as the organization's billing details stood at issue; null: none were given. */
  buyer: BillingParty | null;
  paidAt: string | null;
  voidedAt: string | null;
  lines: InvoiceLine[];
}

export const INVOICE_MESSAGES = {
  month: 'Please give a month as YYYY-MM, e.g. 2026-01.',
  notEnded: 'Only a month that has ended can be closed.',
  forbidden: BILLING_MESSAGES.forbidden,
  /** Also what an administrator gets for another organization's invoice: ids cannot be probed. */
  notFound: 'There is no such invoice.',
  cannot: (action: InvoiceAction, status: InvoiceStatus) =>
    `An invoice that is ${status} cannot be set to ${INVOICE_ACTIONS[action]}.`,
} as const;

/** The invoice number as printed: INV-000042. */
export const invoiceNumber = (n: number | null) => (n === null ? 'Draft' : `INV-${String(n).padStart(6, '0')}`);

/** The first and the last day of a month 'YYYY-MM', as UTC ISO times at 00:00 (the service period). */
export function servicePeriod(month: string): { start: string; end: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(y, m - 1, 1)).toISOString(), end: new Date(Date.UTC(y, m, 0)).toISOString() };
}
