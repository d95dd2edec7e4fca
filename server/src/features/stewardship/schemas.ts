/** Request shapes of the stewardship routes (issue 22); messages from common/stewardship.ts. */

import { CONTACT_MESSAGES, isPhone } from '@tessera/common/contact';
import { normalizePhone } from '@tessera/common/lookup-inputs';
import { text } from '@tessera/common/schemas/fields';
import {
  identityKeyOf,
  STEWARDSHIP_LIMITS,
  STEWARDSHIP_MESSAGES,
  type SuppressionKey,
  suppressionKeyOf,
} from '@tessera/common/stewardship';
import { z } from 'zod';
import { mailboxSchema } from '../contact/mailbox';

const valueText = text().trim().max(STEWARDSHIP_LIMITS.value, STEWARDSHIP_MESSAGES.value);
const identityId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A value (e-mail, phone, MD5, SHA-256) or an identity id, made into the key it is stored or searched as. */
function keyed<T extends { value?: string; identityId?: number }>(
  body: T,
  ctx: z.RefinementCtx,
): SuppressionKey | null {
  if (body.value !== undefined && body.value !== '') {
    const key = suppressionKeyOf(body.value);
    if (!key) ctx.addIssue({ code: 'custom', path: ['value'], message: STEWARDSHIP_MESSAGES.value });
    return key;
  }
  if (body.identityId !== undefined) return identityKeyOf(String(body.identityId));
  return null;
}

export const suppressionListQuery = z
  .object({ value: valueText.optional(), identityId: identityId.optional(), before: identityId.optional() })
  .transform((q, ctx) => ({ key: keyed(q, ctx), before: q.before ?? null }));

export const suppressionBody = z
  .object({ value: valueText.optional(), identityId: identityId.optional() })
  .strict()
  .transform((b, ctx) => {
    const key = keyed(b, ctx);
    if (!key && b.value === undefined)
      ctx.addIssue({ code: 'custom', path: ['value'], message: STEWARDSHIP_MESSAGES.value });
    return key;
  });

export const suppressionParams = z.object({ id: identityId });

export const liftBody = z
  .object({
    reason: text()
      .trim()
      .min(1, STEWARDSHIP_MESSAGES.reason)
      .max(STEWARDSHIP_LIMITS.reason, STEWARDSHIP_MESSAGES.reasonTooLong),
  })
  .strict();

export const auditQuery = z
  .object({ value: valueText.optional(), identityId: identityId.optional(), before: identityId.optional() })
  .refine((q) => (q.value !== undefined && q.value !== '') || q.identityId !== undefined, {
    path: ['value'],
    message: STEWARDSHIP_MESSAGES.auditValue,
  });

/**
 * An opt-out request: the address the link goes to (and is opted out), one mailbox (issue 28 item 9), and optionally
 * a phone number too.
 */
export const optOutBody = z
  .object({
    email: mailboxSchema,
    phone: z
      .string()
      .trim()
      .refine((v) => v === '' || (isPhone(v) && normalizePhone(v) !== null), CONTACT_MESSAGES.phone)
      .default(''),
  })
  .strict();

export const optOutConfirmBody = z.object({ token: z.string().min(1).max(200) }).strict();
