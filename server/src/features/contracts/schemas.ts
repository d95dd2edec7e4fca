/** Request bodies of /v2/contracts. Money is dollars with at most six decimals (two for the monthly limit). */
import { CONTRACT_MESSAGES, CONTRACT_STATUSES, PRICE_GROUPS } from '@tessera/common/contracts';
import { optionalText } from '@tessera/common/schemas/fields';
import { z } from 'zod';

const money = (decimals: number) =>
  z
    .number()
    .min(0, CONTRACT_MESSAGES.price)
    .max(1_000_000, CONTRACT_MESSAGES.price)
    .refine((n) => Math.abs(Math.round(n * 10 ** decimals) - n * 10 ** decimals) < 1e-6, CONTRACT_MESSAGES.price);

const fields = {
  name: optionalText('a name', 100),
  startsAt: z.iso.datetime({ offset: true }).transform((v) => new Date(v)),
  endsAt: z.iso.datetime({ offset: true }).transform((v) => new Date(v)),
  status: z.enum(CONTRACT_STATUSES),
  pricePerRequest: money(6),
  pricePerIdentity: money(6),
  groupPrices: z.partialRecord(z.enum(PRICE_GROUPS as [string, ...string[]]), money(6)),
  monthlyLimit: z.union([money(2), z.null()]),
  rateLimit: z.union([z.number().int().min(1).max(10_000_000), z.null()]),
};

export const contractBody = z
  .object({ organizationId: z.number().int().positive(), ...fields })
  .partial()
  .required({ organizationId: true, startsAt: true, endsAt: true })
  .strict();
export const contractPatch = z.object(fields).partial().strict();
export const contractParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
