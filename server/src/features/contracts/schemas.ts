/**
 * Request bodies of /v2/contracts. Amounts come as JSON numbers (as before) or decimal strings (as the console
 * sends them) and leave as exact decimal strings, stored as SQL numeric (decision 0033). Every rule and message is
 * common/contracts.ts's, which the contract form applies too.
 */
import {
  CONTRACT_MESSAGES,
  CONTRACT_STATUSES,
  limitProblem,
  PRICE_GROUPS,
  priceProblem,
  rateLimitProblem,
  subscriptionLimitProblem,
} from '@tessera/common/contracts';
import { MAX_PURPOSES, type Purpose, purposesProblem } from '@tessera/common/purposes';
import { optionalText } from '@tessera/common/schemas/fields';
import { MAX_LENGTH, MESSAGES } from '@tessera/common/validation';
import { z } from 'zod';

/** A number or a string, checked as the text a person would type. */
const typed = (problem: (text: string) => string | undefined, message: string) =>
  z
    .union([z.number(), z.string()], { error: message })
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    .superRefine((text, ctx) => {
      const why = problem(text);
      if (why) ctx.addIssue({ code: 'custom', message: why });
    });

/** As `typed`, or null for none (a union would hide the branch's message behind 'Invalid input'). */
const typedOrNull = (problem: (text: string) => string | undefined, message: string) =>
  z
    .union([z.number(), z.string(), z.null()], { error: message })
    .transform((v) => (v === null ? null : typeof v === 'number' ? String(v) : v.trim()))
    .superRefine((text, ctx) => {
      const why = text === null ? undefined : problem(text);
      if (why) ctx.addIssue({ code: 'custom', message: why });
    });

const price = () => typed(priceProblem, MESSAGES.number);
const date = () => z.iso.datetime({ offset: true, error: MESSAGES.date }).transform((v) => new Date(v));

/** Permissible purposes (issue 34): ids of common/purposes.ts, each once; null or empty: none is required. */
const purposes = z
  .union([z.array(z.string()).max(MAX_PURPOSES), z.null()], {
    error: 'Please give the permissible purposes as a list of ids.',
  })
  .superRefine((ids, ctx) => {
    const why = ids === null ? undefined : purposesProblem(ids);
    if (why) ctx.addIssue({ code: 'custom', message: why });
  })
  .transform((ids) => (ids === null || ids.length === 0 ? null : (ids as Purpose[])))
  .meta({
    description:
      "Permissible purposes (ids) the organization's lookups may name; a lookup naming none, or another, answers 403. Null or empty, the default: none is required.",
  });

const fields = {
  name: optionalText('a name', MAX_LENGTH.name),
  startsAt: date(),
  endsAt: date(),
  status: z.enum(CONTRACT_STATUSES, { error: CONTRACT_MESSAGES.status }),
  pricePerRequest: price(),
  pricePerIdentity: price(),
  groupPrices: z.record(z.string(), price()).superRefine((prices, ctx) => {
    if (Object.keys(prices).some((group) => !(PRICE_GROUPS as readonly string[]).includes(group))) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.group });
    }
  }),
  monthlyLimit: typedOrNull(limitProblem, MESSAGES.number),
  rateLimit: typedOrNull(rateLimitProblem, MESSAGES.integer).transform((v) => (v === null ? null : Number(v))),
  pricePerEvent: price(),
  subscriptionLimit: typedOrNull(subscriptionLimitProblem, MESSAGES.integer).transform((v) =>
    v === null ? null : Number(v),
  ),
  purposes,
};

export const contractBody = z
  .object({
    organizationId: z.number({ error: 'Please choose an organization.' }).int().positive().max(2_147_483_647),
    ...fields,
  })
  .partial()
  .required({ organizationId: true, startsAt: true, endsAt: true })
  .strict();
export const contractPatch = z.object(fields).partial().strict();
export const contractParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const contractListQuery = z
  .object({ organizationId: z.coerce.number().int().positive().max(2_147_483_647).optional() })
  .strict();

export type ContractBody = z.infer<typeof contractBody>;
export type ContractPatch = z.infer<typeof contractPatch>;
