/**
 * An invoice as a file (decisions 0034, 0064): a PDF (invoice-pdf.ts) and a CSV of its lines made with
 * csv-stringify, each cell through the formula guard (an organization's name is an administrator's text; issue 28
 * finding 11). Money, days and months are in the console's one format (common/money.ts, common/dates.ts).
 */
import { formatDay, formatMonth } from '@tessera/common/dates';
import { type Invoice, invoiceNumber } from '@tessera/common/invoices';
import { formatMoney } from '@tessera/common/money';
import { stringifyRows } from '../../http/csv';
import { lastDay, taxLabel } from './labels';

export { invoicePdf } from './invoice-pdf';

export const CSV_COLUMNS = [
  'invoice',
  'month',
  'organization',
  'contract',
  'price',
  'period_start',
  'period_end',
  'quantity',
  'unit_price',
  'amount',
];

export function invoiceCsv(invoice: Invoice): string {
  const number = invoiceNumber(invoice.number);
  const month = formatMonth(invoice.month);
  const head = [number, month, invoice.organizationName];
  const rows = invoice.lines.map((l) => [
    ...head,
    l.contractId,
    l.price,
    formatDay(l.periodStart),
    lastDay(l.periodEnd),
    l.quantity,
    formatMoney(l.unitPrice),
    formatMoney(l.amount),
  ]);
  const total = (label: string, amount: string) => [...head, '', label, '', '', '', '', formatMoney(amount)];
  rows.push(total('subtotal', invoice.subtotal), total(taxLabel(invoice).toLowerCase(), invoice.tax));
  rows.push(total('total', invoice.total));
  return stringifyRows([CSV_COLUMNS, ...rows]);
}

export const fileName = (invoice: Invoice, ext: 'pdf' | 'csv') =>
  `${invoiceNumber(invoice.number).toLowerCase()}-${invoice.month}.${ext}`;
