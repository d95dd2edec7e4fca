/** Request bodies of /v2/organizations (decision 0007), with the spec §5 field rules. */
import { domainSchema, nameSchema } from '@tessera/common/schemas/fields';
import { z } from 'zod';

/** An empty domain means none. Domains are kept lowercase. */
const optionalDomain = z
  .union([z.literal(''), domainSchema, z.null()])
  .transform((value) => (value ? value.toLowerCase() : null));

export const organizationBody = z.object({
  name: nameSchema,
  emailDomain: optionalDomain.optional(),
  acceptUsers: z.boolean().optional(),
});

export const organizationPatch = z
  .object({ name: nameSchema, emailDomain: optionalDomain, acceptUsers: z.boolean() })
  .partial();

export const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
