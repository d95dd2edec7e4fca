/** Request bodies of Contact Us: the spec §5 rules and messages from common/, as the console form applies them. */
import { CONTACT_LIMITS, CONTACT_MESSAGES, CONTACT_WHAT, isPhone } from '@tessera/common/contact';
import { optionalText, requiredText } from '@tessera/common/schemas/fields';
import { z } from 'zod';
import { mailboxSchema } from './mailbox';

export const contactBody = z
  .object({
    name: requiredText(CONTACT_WHAT.name, CONTACT_LIMITS.name),
    /** One mailbox (issue 28 item 9): it is throttled by, and staff answer to, this address. */
    email: mailboxSchema,
    company: optionalText(CONTACT_WHAT.company, CONTACT_LIMITS.company).default(''),
    phone: optionalText(CONTACT_WHAT.phone, CONTACT_LIMITS.phone)
      .refine((v) => v === '' || isPhone(v), CONTACT_MESSAGES.phone)
      .default(''),
    message: requiredText(CONTACT_WHAT.message, CONTACT_LIMITS.message),
  })
  .strict();

export type ContactBody = z.infer<typeof contactBody>;

export const contactListQuery = z.object({
  /** 'false' (the default): those waiting; 'true': those handled; 'all': both. */
  handled: z.enum(['false', 'true', 'all']).default('false'),
});

export const contactParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const handledBody = z.object({ handled: z.boolean() }).strict();
