/** How an invoice's parts are named in its PDF and CSV (decision 0064). */
import { percentText } from '@tessera/common/billing';
import { formatDay } from '@tessera/common/dates';
import type { Invoice, InvoiceLine } from '@tessera/common/invoices';

/** The last day a period ending (exclusively) at `end` covers. */
export const lastDay = (end: string) => formatDay(Date.parse(end) - 1);

/** What a line's price is for, as a reader says it. */
export function priceLabel(price: InvoiceLine['price']): string {
  if (price === 'request') return 'Requests';
  if (price === 'identity') return 'Identities returned';
  if (price === 'event') return 'Change events';
  return `Identities with ${price}`;
}

/** The tax line's label: its rate, or that no tax applies. */
export const taxLabel = (invoice: Pick<Invoice, 'taxRate'>) =>
  invoice.taxRate === null ? 'Tax (none: no tax rate applies)' : `Tax (${percentText(invoice.taxRate)})`;
