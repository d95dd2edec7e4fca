/**
 * The OpenAPI paths of webhook endpoints and their delivery logs (/v2/webhooks..., issue 33, decision 0066), the
 * reply schemas, and the deliveries themselves as OpenAPI 3.1 `webhooks`: what Tessera POSTs to an endpoint.
 */
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  WEBHOOK_SUBSCRIBABLE_EVENTS,
} from '@tessera/common/webhooks';
import { endpointBody, endpointPatch } from '../webhooks/schemas';
import { type Examples, type Json, ref } from './base';
import {
  BODY_ERRORS,
  CONSOLE_ERRORS,
  CONSOLE_SECURITY,
  CONTENT_ENCODING,
  DELETED,
  errors,
  jsonBody,
  jsonReply,
  requestedWith,
} from './http-parts';

export const WEBHOOKS_TAG = {
  name: 'Webhooks',
  description: `Endpoints of your organization that Tessera POSTs events to, signed as Standard Webhooks (docs/webhooks.md): ${WEBHOOK_SUBSCRIBABLE_EVENTS.join(', ')}, and a test event on request. Managed by the organization's administrators (System Administrators and Maintainers for any organization). Each endpoint keeps a delivery log with every attempt; a delivery can be replayed. Console-session calls.`,
};

const ID = { type: 'integer', minimum: 1, description: 'The endpoint id.' };
const time = (description: string, nullable = false) => ({
  type: nullable ? ['string', 'null'] : 'string',
  format: 'date-time',
  description,
});

const WEBHOOK_ENDPOINT = {
  type: 'object',
  description: 'A webhook endpoint. Its signing secret only in the reply to its creation and to a rotation.',
  required: [
    'id',
    'organizationId',
    'url',
    'description',
    'events',
    'enabled',
    'disabledAt',
    'disabledReason',
    'consecutiveFailures',
    'previousSecretValidUntil',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    id: ID,
    organizationId: { type: 'integer', description: 'The organization it belongs to.' },
    url: { type: 'string', format: 'uri', description: 'Where deliveries are POSTed.' },
    description: { type: 'string' },
    events: {
      type: 'array',
      items: { type: 'string', enum: [...WEBHOOK_SUBSCRIBABLE_EVENTS] },
      description: 'The events it takes.',
    },
    enabled: { type: 'boolean', description: 'Whether deliveries are sent to it.' },
    disabledAt: time('When it was switched off; null while enabled.', true),
    disabledReason: {
      type: ['string', 'null'],
      enum: ['manual', 'failures', null],
      description:
        '`manual`: switched off by a person; `failures`: by a run of failed attempts (a mail told its administrators).',
    },
    consecutiveFailures: {
      type: 'integer',
      minimum: 0,
      description:
        "Attempts failed in a row since the last success; at the server's WEBHOOK_DISABLE_AFTER_FAILURES (50 by default) it is disabled.",
    },
    previousSecretValidUntil: time(
      'After a rotation: until when deliveries also carry a signature made with the previous secret; null otherwise.',
      true,
    ),
    createdAt: time('When it was made.'),
    updatedAt: time('When it last changed.'),
    secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
      description:
        'The signing secret, `whsec_` and the base64 of 32 random bytes: only in the reply to a creation or a rotation, shown once.',
    },
  },
  additionalProperties: false,
};

const ATTEMPT = {
  type: 'object',
  required: ['attempt', 'at', 'statusCode', 'error', 'latencyMs', 'responseExcerpt'],
  properties: {
    attempt: { type: 'integer', minimum: 1, description: '1 for the first try.' },
    at: time('When it was recorded.'),
    statusCode: { type: ['integer', 'null'], description: "The receiver's HTTP status; null when none came." },
    error: {
      type: ['string', 'null'],
      description: 'Why there is no status (refused, timed out, a non-public address, interrupted); null otherwise.',
    },
    latencyMs: { type: 'integer', minimum: 0, description: 'How long the attempt took.' },
    responseExcerpt: {
      type: 'string',
      description: `The start of the receiver's answer, at most ${WEBHOOK_LIMITS.responseExcerptBytes} bytes of it.`,
    },
  },
  additionalProperties: false,
};

const WEBHOOK_DELIVERY = {
  type: 'object',
  description: 'One event on its way to one endpoint, with every attempt made.',
  required: [
    'id',
    'endpointId',
    'messageId',
    'eventType',
    'status',
    'attemptCount',
    'lastStatusCode',
    'lastLatencyMs',
    'lastAttemptAt',
    'nextAttemptAt',
    'replayOf',
    'createdAt',
    'attempts',
  ],
  properties: {
    id: { type: 'integer', minimum: 1, description: 'The delivery id.' },
    endpointId: ID,
    messageId: { type: 'string', description: 'The `webhook-id` header: the same on every attempt and on replays.' },
    eventType: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
    status: {
      type: 'string',
      enum: [...WEBHOOK_DELIVERY_STATUSES],
      description:
        '`pending` until an attempt answers 2xx (`succeeded`) or the last attempt of the schedule fails (`failed`).',
    },
    attemptCount: { type: 'integer', minimum: 0 },
    lastStatusCode: { type: ['integer', 'null'] },
    lastLatencyMs: { type: ['integer', 'null'] },
    lastAttemptAt: time('When the last attempt was recorded.', true),
    nextAttemptAt: time('When the next attempt is due; null once it succeeded or failed.', true),
    replayOf: { type: ['integer', 'null'], description: 'The delivery this one replays.' },
    createdAt: time('When it was queued.'),
    attempts: { type: 'array', items: ATTEMPT, description: 'Every attempt, the first first.' },
  },
  additionalProperties: false,
};

const EVENT = {
  type: 'object',
  description: 'The body of every delivery.',
  required: ['type', 'timestamp', 'data'],
  properties: {
    type: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
    timestamp: time('When the event happened (UTC).'),
    data: { type: 'object', description: "The event's details.", additionalProperties: true },
  },
  additionalProperties: false,
};

export function webhookSchemas(): Record<string, Json> {
  return {
    WebhookEndpoint: WEBHOOK_ENDPOINT,
    WebhookEndpoints: {
      type: 'object',
      description: 'Endpoints by id.',
      required: ['webhooks'],
      properties: { webhooks: { type: 'object', additionalProperties: ref('WebhookEndpoint') } },
      additionalProperties: false,
    },
    DeletedWebhookEndpoint: DELETED(ID),
    WebhookDelivery: WEBHOOK_DELIVERY,
    WebhookDeliveryReply: {
      type: 'object',
      required: ['webhookDelivery'],
      properties: { webhookDelivery: ref('WebhookDelivery') },
      additionalProperties: false,
    },
    WebhookDeliveries: {
      type: 'object',
      required: ['webhookDeliveries'],
      properties: {
        webhookDeliveries: {
          type: 'object',
          required: ['endpointId', 'deliveries', 'next'],
          properties: {
            endpointId: ID,
            deliveries: { type: 'array', items: ref('WebhookDelivery'), description: 'Newest first.' },
            next: { type: ['string', 'null'], description: 'The `after` of the next page; null on the last.' },
          },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    WebhookEvent: EVENT,
  };
}

const HEADER_PARAMETERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message id, the same on every attempt and replay: drop a message already handled.',
    schema: { type: 'string', pattern: '^msg_[A-Za-z0-9_-]+$' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt: refuse one far from your clock (5 minutes is usual).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded secret after `whsec_`; after a rotation, for the overlap, two of them separated by a space. Accept the delivery when one matches.',
    schema: { type: 'string' },
  },
];

/** OpenAPI 3.1 `webhooks`: what Tessera sends, one entry per event type. */
export function webhookEvents(): Record<string, Json> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `event_${type.replace('.', '_')}`,
          summary: `The ${type} event`,
          description: `${WEBHOOK_EVENT_DESCRIPTIONS[type]} POSTed as application/json to each enabled endpoint that takes it${type === 'webhook.test' ? ' (a test event: to the one endpoint asked)' : ''}; retried until a 2xx answer, for more than 24 hours.`,
          tags: [WEBHOOKS_TAG.name],
          security: [],
          parameters: HEADER_PARAMETERS,
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEvent') } } },
          responses: {
            '200': {
              description:
                'Any 2xx: delivered. Anything else, a redirect included, or no answer in time is a failed attempt.',
            },
          },
        },
      },
    ]),
  );
}

export function webhookPaths(examples: Examples): Record<string, Json> {
  const tags = [WEBHOOKS_TAG.name];
  const ex = (id: string) => examples.operations[id];
  const pathId = (operationId: string) => ({
    name: 'id',
    in: 'path',
    required: true,
    description: 'The endpoint id; one that is not a number answers 400.',
    schema: ID,
    ...(ex(operationId)?.request.query?.id ? { example: Number(ex(operationId)!.request.query!.id) } : {}),
  });
  const notFound = { '404': "No such endpoint, or another organization's." };
  const base = { tags, security: CONSOLE_SECURITY };
  const changing = (operationId: string) => [pathId(operationId), requestedWith(true)];
  return {
    '/v2/webhooks': {
      get: {
        ...base,
        operationId: 'listWebhooks',
        summary: 'List webhook endpoints',
        description:
          "Your organization's endpoints; System Administrators and Maintainers: every organization's, or one organization's with `organizationId`. Keyed by id.",
        parameters: [
          {
            name: 'organizationId',
            in: 'query',
            required: false,
            description: "Only this organization's (staff); an administrator naming another organization gets 404.",
            schema: { type: 'integer', minimum: 1 },
          },
        ],
        responses: {
          '200': jsonReply('The endpoints, by id.', ref('WebhookEndpoints'), ex('listWebhooks')),
          ...errors({ ...CONSOLE_ERRORS, '404': 'No such organization, or not yours.' }),
        },
      },
      post: {
        ...base,
        operationId: 'createWebhook',
        summary: 'Make a webhook endpoint',
        description: `Makes an endpoint. The reply carries its signing \`secret\` this once. The URL's host is checked when saved and again on every connection: an address, or a name resolving to one, that is loopback, link-local or private is refused (400 naming it). At most ${WEBHOOK_LIMITS.endpointsPerOrganization} per organization.`,
        parameters: [requestedWith(true), CONTENT_ENCODING],
        requestBody: jsonBody(endpointBody, ex('createWebhook')),
        responses: {
          '201': jsonReply(
            'The new endpoint, with its secret shown this once.',
            ref('WebhookEndpoints'),
            ex('createWebhook'),
          ),
          ...errors({
            ...CONSOLE_ERRORS,
            ...BODY_ERRORS,
            '404': 'No such organization, or not yours.',
            '409': `The organization has ${WEBHOOK_LIMITS.endpointsPerOrganization} endpoints already.`,
          }),
        },
      },
    },
    '/v2/webhooks/{id}': {
      get: {
        ...base,
        operationId: 'getWebhook',
        summary: 'Read a webhook endpoint',
        description: 'One endpoint you may manage.',
        parameters: [pathId('getWebhook')],
        responses: {
          '200': jsonReply('The endpoint.', ref('WebhookEndpoints'), ex('getWebhook')),
          ...errors({ ...CONSOLE_ERRORS, ...notFound }),
        },
      },
      put: {
        ...base,
        operationId: 'updateWebhook',
        summary: 'Change a webhook endpoint',
        description:
          'Changes any of its URL (checked as a new one), description, events and `enabled`; the others stay. Enabling it again after the run of failures disabled it starts the count afresh and resumes its pending deliveries.',
        parameters: [...changing('updateWebhook'), CONTENT_ENCODING],
        requestBody: jsonBody(endpointPatch, ex('updateWebhook')),
        responses: {
          '200': jsonReply('The changed endpoint.', ref('WebhookEndpoints'), ex('updateWebhook')),
          ...errors({ ...CONSOLE_ERRORS, ...BODY_ERRORS, ...notFound }),
        },
      },
      delete: {
        ...base,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description: 'Deletes it with its delivery log; nothing more is sent to it.',
        parameters: changing('deleteWebhook'),
        responses: {
          '200': jsonReply(
            'The endpoint marked deleted: `{webhooks: {id: {id, deletedAt}}}`.',
            {
              type: 'object',
              required: ['webhooks'],
              properties: { webhooks: { type: 'object', additionalProperties: ref('DeletedWebhookEndpoint') } },
            },
            ex('deleteWebhook'),
          ),
          ...errors({ ...CONSOLE_ERRORS, ...notFound }),
        },
      },
    },
    '/v2/webhooks/{id}/rotate-secret': {
      post: {
        ...base,
        operationId: 'rotateWebhookSecret',
        summary: "Rotate a webhook endpoint's secret",
        description:
          "Gives it a new signing secret, shown this once. For the server's WEBHOOK_SECRET_OVERLAP (24 hours by default, `previousSecretValidUntil`) deliveries carry a signature with each secret, so a receiver can switch without missing one.",
        parameters: changing('rotateWebhookSecret'),
        responses: {
          '200': jsonReply(
            'The endpoint with its new secret, shown this once.',
            ref('WebhookEndpoints'),
            ex('rotateWebhookSecret'),
          ),
          ...errors({ ...CONSOLE_ERRORS, ...notFound }),
        },
      },
    },
    '/v2/webhooks/{id}/test': {
      post: {
        ...base,
        operationId: 'testWebhook',
        summary: 'Send a test event',
        description: 'Queues a `webhook.test` event to this endpoint, whatever events it takes; it is sent at once.',
        parameters: changing('testWebhook'),
        responses: {
          '202': jsonReply('The delivery queued.', ref('WebhookDeliveryReply'), ex('testWebhook')),
          ...errors({ ...CONSOLE_ERRORS, ...notFound, '409': 'The endpoint is disabled: enable it first.' }),
        },
      },
    },
    '/v2/webhooks/{id}/deliveries': {
      get: {
        ...base,
        operationId: 'listWebhookDeliveries',
        summary: "Read an endpoint's delivery log",
        description:
          'Its deliveries, newest first, a page at a time, each with every attempt and the start of each answer.',
        parameters: [
          pathId('listWebhookDeliveries'),
          {
            name: 'pageSize',
            in: 'query',
            required: false,
            description: `Deliveries a page: one of ${TABLE_PAGE_SIZES.join(', ')}.`,
            schema: { type: 'integer', enum: [...TABLE_PAGE_SIZES], default: 100 },
          },
          {
            name: 'after',
            in: 'query',
            required: false,
            description: "The previous page's `next`, for the page after it; a cursor not from this log answers 400.",
            schema: { type: 'string', maxLength: 200 },
          },
          {
            name: 'status',
            in: 'query',
            required: false,
            description: 'Only deliveries in this state.',
            schema: { type: 'string', enum: [...WEBHOOK_DELIVERY_STATUSES] },
          },
        ],
        responses: {
          '200': jsonReply('A page of the log.', ref('WebhookDeliveries'), ex('listWebhookDeliveries')),
          ...errors({ ...CONSOLE_ERRORS, ...notFound }),
        },
      },
    },
    '/v2/webhooks/{id}/deliveries/{deliveryId}/replay': {
      post: {
        ...base,
        operationId: 'replayWebhookDelivery',
        summary: 'Replay a delivery',
        description:
          'Queues the same message (the same `webhook-id` and body) to this endpoint again as a new delivery with a fresh schedule of attempts.',
        parameters: [
          ...changing('replayWebhookDelivery'),
          {
            name: 'deliveryId',
            in: 'path',
            required: true,
            description: 'A delivery of this endpoint.',
            schema: { type: 'integer', minimum: 1 },
            ...(ex('replayWebhookDelivery')?.request.query?.deliveryId
              ? { example: Number(ex('replayWebhookDelivery')!.request.query!.deliveryId) }
              : {}),
          },
        ],
        responses: {
          '202': jsonReply('The new delivery queued.', ref('WebhookDeliveryReply'), ex('replayWebhookDelivery')),
          ...errors({
            ...CONSOLE_ERRORS,
            '404': 'No such endpoint, or no such delivery of it.',
            '409': 'The endpoint is disabled: enable it first.',
          }),
        },
      },
    },
  };
}
