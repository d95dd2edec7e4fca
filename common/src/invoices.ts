/** Invoices (issue 19, decision 0034): statuses, their allowed changes, months, and the messages. */

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
  total: string;
  issuedAt: string | null;
  paidAt: string | null;
  voidedAt: string | null;
  lines: InvoiceLine[];
}

export const INVOICE_MESSAGES = {
  month: 'Please give a month as YYYY-MM, e.g. 2026-01.',
  notEnded: 'Only a month that has ended can be closed.',
  forbidden: "Only the organization's administrators can see its invoices.",
  notFound: 'There is no such invoice.',
  cannot: (action: InvoiceAction, status: InvoiceStatus) =>
    `An invoice that is ${status} cannot be set to ${INVOICE_ACTIONS[action]}.`,
} as const;

/** The invoice number as printed: INV-000042. */
export const invoiceNumber = (n: number | null) => (n === null ? 'Draft' : `INV-${String(n).padStart(6, '0')}`);
