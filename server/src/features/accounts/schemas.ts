/** Request bodies of the account calls (spec §7), checked with the spec §5 field rules. */
import { emailSchema, nameSchema, passwordSchema, text } from '@tessera/common/schemas/fields';
import { z } from 'zod';

export const emailBody = z.object({ email: emailSchema });
export const signupBody = z.object({ name: nameSchema, email: emailSchema });
export const linkBody = z.object({ token: text().min(20).max(100) });
export const passwordAction = z.object({ action: z.enum(['set', 'change', 'reset']) });
export const passwordBody = z.object({
  /** The current password (change only). */
  password: text().max(100).optional(),
  newPassword: passwordSchema,
});

export const preapproveReply = z.object({
  emailDomain: z.string(),
  organizationName: z.string(),
  acceptUsers: z.boolean(),
  /** The existing account's id for this address, 0 when there is none. */
  userId: z.number().int(),
});
