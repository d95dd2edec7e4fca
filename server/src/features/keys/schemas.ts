/** Request bodies of /v2/keys, with the rules a key's settings must keep. */
import { normalizeCidr } from '@tessera/common/key-settings';
import { KEY_LIMITS, KEY_MESSAGES } from '@tessera/common/keys';
import { isRecordType } from '@tessera/common/record-types';
import { nameSchema } from '@tessera/common/schemas/fields';
import { z } from 'zod';

/** The allowlist rule is shared with the console's form (common/key-settings.ts). */
export { normalizeCidr };

const cidr = z.string().transform((value, ctx) => {
  const out = normalizeCidr(value);
  if (!out) ctx.addIssue({ code: 'custom', message: KEY_MESSAGES.cidr(value.slice(0, 60)) });
  return out ?? '';
});

const recordType = z.string().superRefine((value, ctx) => {
  if (!isRecordType(value)) ctx.addIssue({ code: 'custom', message: KEY_MESSAGES.recordType(value.slice(0, 40)) });
});

const expiresAt = z
  .union([z.iso.datetime({ offset: true }), z.null()])
  .transform((value) => (value ? new Date(value) : null))
  .refine((date) => date === null || date.getTime() > Date.now(), KEY_MESSAGES.expiresPast);

const settings = {
  name: nameSchema,
  expiresAt,
  ipAllowlist: z.array(cidr).max(KEY_LIMITS.maxAllowlist),
  rateLimit: z.union([z.number().int().min(1).max(KEY_LIMITS.maxRateLimit), z.null()]),
  allowedRecordTypes: z.array(recordType),
  legacy: z.boolean(),
};

export const keyBody = z.object(settings).partial().required({ name: true }).strict();
export const keyPatch = z.object(settings).partial().strict();
export const rotateBody = z
  .object({ graceSeconds: z.number().int().min(0).max(KEY_LIMITS.maxGraceSeconds).default(0) })
  .strict()
  .default({ graceSeconds: 0 });
export const keyParams = z.object({ id: z.string().regex(/^[A-Za-z0-9]{16}$/, KEY_MESSAGES.notFound) });
