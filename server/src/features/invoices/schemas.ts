/** Requests of /v2/invoices (decision 0034); every message is common/invoices.ts's. */
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import { INVOICE_MESSAGES, INVOICE_STATUSES, MONTH_PATTERN } from '@tessera/common/invoices';
import { z } from 'zod';

const id = z.coerce.number({ error: 'Please give a whole number id.' }).int().positive().max(2_147_483_647);
const month = z.string({ error: INVOICE_MESSAGES.month }).regex(MONTH_PATTERN, INVOICE_MESSAGES.month);

export const listQuery = z.object({
  month: month.optional(),
  organizationId: id.optional(),
  status: z.enum(INVOICE_STATUSES, { error: `Status is one of ${INVOICE_STATUSES.join(', ')}.` }).optional(),
  limit: z.coerce
    .number()
    .int()
    .refine((n) => (TABLE_PAGE_SIZES as readonly number[]).includes(n), {
      message: `Page size is one of ${TABLE_PAGE_SIZES.join(', ')}.`,
    })
    .default(25),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});

/** `42`, `42.pdf` or `42.csv`. */
export const fileParams = z.object({
  file: z.string().regex(/^[1-9]\d{0,9}(\.(pdf|csv))?$/, 'Please give an invoice id, e.g. 42, 42.pdf or 42.csv.'),
});
export const idParams = z.object({ id });
export const closeBody = z.object({ month });
export const actionParams = z.object({ id, action: z.enum(['pay', 'void'], { error: 'The action is pay or void.' }) });
export const draftQuery = z.object({ organizationId: id });
