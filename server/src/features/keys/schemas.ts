/** Request bodies of /v2/keys, with the rules a key's settings must keep. */
import { normalizeCidr } from '@tessera/common/key-settings';
import { KEY_LIMITS, KEY_MESSAGES, KEY_MODES, TEST_KEY_PREFIX } from '@tessera/common/keys';
import { PURPOSE_IDS, parsePurpose } from '@tessera/common/purposes';
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

/** Descriptions only (the OpenAPI document reads them); they change no rule. */
const settings = {
  name: nameSchema.meta({ description: "The key's name, shown on the console." }),
  expiresAt: expiresAt.meta({
    description:
      'When the key stops working: an ISO date-time in the future with its offset, or null for never (the default).',
  }),
  ipAllowlist: z
    .array(cidr)
    .max(KEY_LIMITS.maxAllowlist)
    .meta({
      description: `Addresses or CIDR ranges, IPv4 or IPv6, the key may be used from (at most ${KEY_LIMITS.maxAllowlist}); empty, the default: anywhere.`,
    }),
  rateLimit: z.union([z.number().int().min(1).max(KEY_LIMITS.maxRateLimit), z.null()]).meta({
    description: "Requests a minute the key may make (sliding window); null, the default: only the contract's limit.",
  }),
  allowedRecordTypes: z.array(recordType).meta({
    description:
      "Record types the key's lookups may read, within its user's own; empty, the default: all of the user's.",
  }),
  defaultPurpose: z
    .union([z.string(), z.null()], { error: 'Please give a permissible purpose id, or null for none.' })
    .transform((value, ctx) => {
      const parsed = parsePurpose(value);
      if (parsed.error !== undefined) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed.purpose;
    })
    .meta({
      description: `The permissible purpose the key's lookups are made for when a call names none (one of ${PURPOSE_IDS.join(', ')}); null, the default: none.`,
    }),
  legacy: z.boolean().meta({
    description: "Whether the original API's MD5-signed form is accepted (default false).",
  }),
};

const mode = z.enum(KEY_MODES).meta({
  description: `\`live\` (the default) looks up the identity graph and is metered; \`test\` answers from the sandbox, a fixed public synthetic set, free and unmetered, and is presented as \`Bearer ${TEST_KEY_PREFIX}{keyId}{secret}\`. Fixed for the key's life.`,
});

export const keyBody = z
  .object({ ...settings, mode })
  .partial()
  .required({ name: true })
  .strict();
export const keyPatch = z
  .object({ ...settings, mode: z.custom<never>(() => false, KEY_MESSAGES.modeFixed) })
  .partial()
  .strict();
export const rotateBody = z
  .object({
    graceSeconds: z
      .number()
      .int()
      .min(0)
      .max(KEY_LIMITS.maxGraceSeconds)
      .default(0)
      .meta({
        description: `Seconds the previous secret keeps working (0 to ${KEY_LIMITS.maxGraceSeconds}); 0, the default: it stops at once.`,
      }),
  })
  .strict()
  .default({ graceSeconds: 0 });
export const keyParams = z.object({ id: z.string().regex(/^[A-Za-z0-9]{16}$/, KEY_MESSAGES.notFound) });
