/** Request bodies and queries of /v2/subscriptions (decision 0067); every message is common/subscriptions.ts's. */
import { SUBSCRIPTION_INPUTS, SUBSCRIPTION_MESSAGES } from '@tessera/common/subscriptions';
import { z } from 'zod';

const id = () => z.coerce.number().int().positive().max(2_147_483_647);
const input = (name: string) =>
  z
    .string({ error: `Please give the ${name} as text.` })
    .max(320)
    .optional()
    .describe(`The ${name} to subscribe by.`);

export const subscriptionBody = z
  .object({
    identityId: z
      .number({ error: SUBSCRIPTION_MESSAGES.identityId })
      .int({ error: SUBSCRIPTION_MESSAGES.identityId })
      .positive({ error: SUBSCRIPTION_MESSAGES.identityId })
      .max(Number.MAX_SAFE_INTEGER, { error: SUBSCRIPTION_MESSAGES.identityId })
      .optional()
      .describe('The identity to subscribe to, by id.'),
    email: input('e-mail address'),
    phone: input('phone number'),
    md5: input("e-mail's MD5 hash"),
    sha256: input("e-mail's SHA-256 hash"),
    template: z
      .number({ error: 'Please give a template id: a whole number.' })
      .int()
      .positive()
      .max(2_147_483_647)
      .optional()
      .describe('The template that shapes the record in each event; Full (1) by default, as lookups.'),
  })
  .strict()
  .superRefine((body, ctx) => {
    const given = (['identityId', ...SUBSCRIPTION_INPUTS] as const).filter((k) => body[k] !== undefined);
    if (given.length !== 1) ctx.addIssue({ code: 'custom', path: [], message: SUBSCRIPTION_MESSAGES.oneTarget });
  });
export type SubscriptionBody = z.infer<typeof subscriptionBody>;

export const subscriptionParams = z.object({ id: id() });
export const subscriptionListQuery = z.object({ before: id().optional() }).strict();
