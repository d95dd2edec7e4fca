/**
 * Options every lookup takes besides its inputs: in the query string of a GET or PUT, in the body of a POST.
 * Anything else in a GET's query string is an input.
 */
import type { FieldError } from '@tessera/common/errors';
import { LOOKUP_FORMATS, LOOKUP_LIMITS, type LookupFormat } from '@tessera/common/lookups';
import { z } from 'zod';
import { BadRequest } from '../../http/errors';

export const OPTION_NAMES = ['template', 'minScore', 'explain', 'limit', 'format'] as const;

const flag = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1'),
]);
const whole = (min: number, max: number, message: string) =>
  z.coerce.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });

export const optionsSchema = z.object({
  template: whole(1, 2_147_483_647, 'Please give a template id: a positive whole number.').optional(),
  minScore: z.coerce
    .number({ error: 'Please give minScore as a number from 0 to 100.' })
    .min(0, { error: 'Please give minScore as a number from 0 to 100.' })
    .max(100, { error: 'Please give minScore as a number from 0 to 100.' })
    .optional(),
  explain: flag.optional(),
  limit: whole(
    1,
    LOOKUP_LIMITS.maxLimit,
    `Please give limit as a whole number from 1 to ${LOOKUP_LIMITS.maxLimit}.`,
  ).optional(),
  format: z.enum(LOOKUP_FORMATS, { error: 'Please give format as json or csv.' }).optional(),
});
export type LookupOptionsInput = z.infer<typeof optionsSchema>;

export const unknownOption = (name: string) =>
  `${name} is not an option of this call; the options are ${OPTION_NAMES.join(', ')}.`;

/**
 * The options, or a 400 naming each bad one under `context` ('querystring' or 'body'). With `others`, any other
 * name is refused too (a misspelt `minscore` must not be silently ignored); a GET's other names are its inputs.
 */
export function parseOptions(
  raw: Record<string, unknown>,
  context: string,
  others?: readonly string[],
): LookupOptionsInput {
  if (others) {
    const allowed = new Set<string>([...OPTION_NAMES, ...others]);
    const fields = Object.keys(raw)
      .filter((name) => !allowed.has(name))
      .map((name) => ({ path: `${context}.${name}`, message: unknownOption(name) }));
    if (fields.length > 0) throw invalid(fields);
  }
  const picked = Object.fromEntries(OPTION_NAMES.filter((n) => raw[n] !== undefined).map((n) => [n, raw[n]]));
  const parsed = optionsSchema.safeParse(picked);
  if (parsed.success) return parsed.data;
  const fields: FieldError[] = parsed.error.issues.map((issue) => ({
    path: [context, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw invalid(fields);
}

/** 400 with every field error, its text naming the first. */
export function invalid(fields: FieldError[]): BadRequest {
  const first = fields[0]!;
  const more = fields.length > 1 ? ` (and ${fields.length - 1} more)` : '';
  return new BadRequest(`Invalid input ${first.path}: ${first.message}${more}`, fields);
}

/** CSV when asked by `format`, or by an Accept header that names text/csv and not JSON. */
export function wantsCsv(format: LookupFormat | undefined, accept: string | undefined): boolean {
  if (format) return format === 'csv';
  const value = (accept ?? '').toLowerCase();
  return value.includes('text/csv') && !value.includes('application/json');
}
