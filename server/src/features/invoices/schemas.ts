/** Requests of /v2/invoices and /v2/billing (decisions 0034, 0064); every message is common's. */
import { BILLING_LIMITS, BILLING_MESSAGES, taxIdProblem, taxRateProblem } from '@tessera/common/billing';
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import { INVOICE_MESSAGES, INVOICE_STATUSES, MONTH_PATTERN } from '@tessera/common/invoices';
import { text } from '@tessera/common/schemas/fields';
import { US_STATES } from '@tessera/common/states';
import { isEmail, isZip, MAX_LENGTH, MESSAGES } from '@tessera/common/validation';
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

/** Text that may be left out, null or blank (all meaning none), else trimmed and checked by `problem`. */
const optionalChecked = (problem: (v: string) => string | undefined, message: string) =>
  text()
    .nullish()
    .transform((v) => (v === null || v === undefined || v.trim() === '' ? null : v.trim()))
    .refine((v) => v === null || problem(v) === undefined, message);

const required = (what: string, max: number) =>
  text({ error: MESSAGES.required(what) })
    .trim()
    .min(1, { message: MESSAGES.required(what), abort: true })
    .max(max, MESSAGES.tooLong(what, max));

export const billingParams = z.object({ organizationId: id });

/** PUT /v2/billing/{organizationId}: spec §5 rules and messages; taxRate left out keeps the rate, null clears it. */
export const billingBody = z.object({
  legalName: required('a legal name', BILLING_LIMITS.legalName),
  street: required('a street address', MAX_LENGTH.address),
  city: required('a city', MAX_LENGTH.city),
  state: text({ error: MESSAGES.state })
    .trim()
    .refine((v) => US_STATES.some((s) => s.abbreviation === v), MESSAGES.state),
  zip: text({ error: MESSAGES.zip }).trim().refine(isZip, MESSAGES.zip),
  taxId: optionalChecked(taxIdProblem, BILLING_MESSAGES.taxId),
  email: optionalChecked((v) => (isEmail(v) ? undefined : MESSAGES.email), MESSAGES.email),
  taxRate: z
    .union([text(), z.number()], { error: BILLING_MESSAGES.taxRate })
    .nullish()
    .transform((v) => (v === undefined ? undefined : v === null || String(v).trim() === '' ? null : String(v).trim()))
    .refine((v) => v === undefined || v === null || taxRateProblem(v) === undefined, BILLING_MESSAGES.taxRate),
});
