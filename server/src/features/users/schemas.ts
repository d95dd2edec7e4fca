/** Request bodies of /v2/users (decision 0007), with the spec §5 field rules. */
import { isRecordType, RECORD_TYPES } from '@tessera/common/record-types';
import { assignableRoles } from '@tessera/common/roles';
import { emailSchema, nameSchema, optionalText, text } from '@tessera/common/schemas/fields';
import { MAX_LENGTH } from '@tessera/common/validation';
import { z } from 'zod';

export const titleSchema = optionalText('a title', MAX_LENGTH.title);
/** Only ranks a person can hold; the half states (resetter, signer) are never stored. */
const storedRole = z.enum(assignableRoles('root').concat('root') as [string, ...string[]]);
const recordTypes = z
  .array(text().refine(isRecordType, `Please choose record types from: ${RECORD_TYPES.join(', ')}.`))
  .max(RECORD_TYPES.length)
  .transform((list) => [...new Set(list)]);

export const newUserBody = z.object({
  email: emailSchema,
  name: nameSchema,
  title: titleSchema.optional(),
  role: storedRole,
  /** Default: the creator's organization. */
  organizationId: z.number().int().positive().nullable().optional(),
});

export const userPatch = z.object({
  name: nameSchema.optional(),
  title: titleSchema.optional(),
  /** Only clearing is accepted here; a picture is set by uploading it. */
  image: z.literal('').optional(),
  role: storedRole.optional(),
  isActive: z.boolean().optional(),
  organizationId: z.number().int().positive().nullable().optional(),
  allowedRecordTypes: recordTypes.optional(),
});

export const usersQuery = z.object({ organizationId: z.coerce.number().int().positive().optional() });

export type UserPatch = z.infer<typeof userPatch>;
