/**
 * Requests and replies of /v2/webhooks (decision 0066). Replies go through these schemas on the way out, so no
 * sealed secret can leave by accident; a signing secret appears only where the reply type allows it.
 */
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import { text } from '@tessera/common/schemas/fields';
import {
  isSubscribableEvent,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SUBSCRIBABLE_EVENTS,
  type WebhookSubscribableEvent,
} from '@tessera/common/webhooks';
import { z } from 'zod';
import { urlShapeProblem } from './addresses';

const INT_MAX = 2_147_483_647;
const id = () => z.coerce.number().int().positive().max(INT_MAX);

const url = text({ error: WEBHOOK_MESSAGES.url })
  .trim()
  .superRefine((value, ctx) => {
    const problem = urlShapeProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description: `Where deliveries are POSTed: https (http only to a loopback address), at most ${WEBHOOK_LIMITS.urlMax} characters, without user name, password or fragment. Its host must not be or resolve to a loopback, link-local or private address.`,
  });

const description = text()
  .trim()
  .max(WEBHOOK_LIMITS.descriptionMax, WEBHOOK_MESSAGES.description)
  .meta({ description: `What the endpoint is for (at most ${WEBHOOK_LIMITS.descriptionMax} characters).` });

const events = z
  .array(z.string({ error: WEBHOOK_MESSAGES.events }), { error: WEBHOOK_MESSAGES.events })
  .min(1, WEBHOOK_MESSAGES.events)
  .superRefine((values, ctx) => {
    const seen = new Set<string>();
    for (const value of values) {
      if (!isSubscribableEvent(value))
        ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.eventUnknown(value.slice(0, 60)) });
      else if (seen.has(value)) ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.eventRepeated(value) });
      seen.add(value);
    }
  })
  .transform((values) => [...new Set(values)] as WebhookSubscribableEvent[])
  .meta({
    description: `The events sent to it, at least one of ${WEBHOOK_SUBSCRIBABLE_EVENTS.join(', ')}. A test event (webhook.test) goes to it whatever this lists.`,
  });

const enabled = z.boolean().meta({
  description:
    'Whether deliveries are sent. Setting it true again after the run of failures disabled it starts the count afresh; pending deliveries resume.',
});

export const endpointBody = z
  .object({
    url,
    description: description.default(''),
    events,
    enabled: enabled.default(true),
    organizationId: id().optional().meta({
      description:
        "The organization it belongs to: only System Administrators and Maintainers name one (by default their own); an administrator's endpoints are their organization's.",
    }),
  })
  .strict();

export const endpointPatch = z.object({ url, description, events, enabled }).partial().strict();

export const endpointParams = z.object({ id: id() });
export const deliveryParams = z.object({
  id: id(),
  deliveryId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const listQuery = z.object({ organizationId: id().optional() }).strict();

export const deliveriesQuery = z
  .object({
    pageSize: z.coerce
      .number()
      .int()
      .refine((n) => (TABLE_PAGE_SIZES as readonly number[]).includes(n), {
        message: `Page size is one of ${TABLE_PAGE_SIZES.join(', ')}.`,
      })
      .default(100),
    after: text().max(200).optional(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  })
  .strict();

const time = z.string();
const endpointItem = z
  .object({
    id: z.number(),
    organizationId: z.number(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_SUBSCRIBABLE_EVENTS)),
    enabled: z.boolean(),
    disabledAt: time.nullable(),
    disabledReason: z.enum(['manual', 'failures']).nullable(),
    consecutiveFailures: z.number(),
    previousSecretValidUntil: time.nullable(),
    createdAt: time,
    updatedAt: time,
    secret: z.string().optional(),
  })
  .strict();

export const endpointsReply = z.object({ webhooks: z.record(z.string(), endpointItem) });
export const endpointDeletedReply = z.object({
  webhooks: z.record(z.string(), z.object({ id: z.number(), deletedAt: time }).strict()),
});

const delivery = z
  .object({
    id: z.number(),
    endpointId: z.number(),
    messageId: z.string(),
    eventType: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attemptCount: z.number(),
    lastStatusCode: z.number().nullable(),
    lastLatencyMs: z.number().nullable(),
    lastAttemptAt: time.nullable(),
    nextAttemptAt: time.nullable(),
    replayOf: z.number().nullable(),
    createdAt: time,
    attempts: z.array(
      z
        .object({
          attempt: z.number(),
          at: time,
          statusCode: z.number().nullable(),
          error: z.string().nullable(),
          latencyMs: z.number(),
          responseExcerpt: z.string(),
        })
        .strict(),
    ),
  })
  .strict();

export const deliveryPageReply = z.object({
  webhookDeliveries: z.object({ endpointId: z.number(), deliveries: z.array(delivery), next: z.string().nullable() }),
});
export const deliveryReply = z.object({ webhookDelivery: delivery });
