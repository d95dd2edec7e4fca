/**
 * The OpenAPI paths of change subscriptions (/v2/subscriptions..., issue 33 item 2, decision 0067,
 * docs/subscriptions.md) and their schemas; the events themselves are the `identity.changed` webhook.
 */
import { SUBSCRIPTION_INPUTS, SUBSCRIPTION_LIMITS } from '@tessera/common/subscriptions';
import { subscriptionBody } from '../subscriptions/schemas';
import { type Examples, header, type Json, ref } from './base';
import {
  BASE_HEADERS,
  CONTENT_ENCODING,
  DELETED,
  errors,
  IDEMPOTENCY_KEY,
  jsonBody,
  jsonReply,
  LOOKUP_SECURITY,
  RATE_HEADERS,
  requestedWith,
} from './http-parts';

export const SUBSCRIPTIONS_TAG = {
  name: 'Subscriptions',
  description: `Subscriptions to identities, by id or by an input (${SUBSCRIPTION_INPUTS.join(', ')}) resolved when made and again when its holder changes. Each change of a subscribed identity's record, by an import or update or by the suppression list, goes out as one identity.changed webhook event per subscription (docs/subscriptions.md), billed per delivered event at the contract's price per event. Made with an API key or a console session, up to the contract's subscription limit; seen by every caller of the organization.`,
};

const ID = { type: 'integer', minimum: 1 };

const SUBSCRIPTION = {
  type: 'object',
  description: 'A subscription to one identity.',
  required: ['id', 'organizationId', 'userId', 'keyId', 'identityId', 'input', 'templateId', 'createdAt'],
  properties: {
    id: ID,
    organizationId: ID,
    userId: { ...ID, description: "Who subscribed (the key's user for a key)." },
    keyId: { type: ['string', 'null'], description: 'The API key that subscribed; null for a console user.' },
    identityId: { ...ID, description: 'The identity it follows now (an input may move it to another).' },
    input: {
      type: ['object', 'null'],
      description: 'The input it was made by, normalized; null for a subscription by id.',
      required: ['kind', 'value'],
      properties: { kind: { type: 'string', enum: [...SUBSCRIPTION_INPUTS] }, value: { type: 'string' } },
      additionalProperties: false,
    },
    templateId: { ...ID, description: "The template shaping each event's record." },
    createdAt: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
};

export function subscriptionSchemas(): Record<string, Json> {
  return {
    Subscription: SUBSCRIPTION,
    Subscriptions: {
      type: 'object',
      description: 'Subscriptions by id.',
      required: ['subscriptions'],
      properties: { subscriptions: { type: 'object', additionalProperties: ref('Subscription') } },
      additionalProperties: false,
    },
    SubscriptionList: {
      type: 'object',
      description: "A page of subscriptions by id, with the organization's use of its contract's limit.",
      required: ['subscriptions', 'live', 'limit'],
      properties: {
        subscriptions: { type: 'object', additionalProperties: ref('Subscription') },
        live: { type: 'integer', minimum: 0, description: "The organization's live subscriptions, every page." },
        limit: {
          type: ['integer', 'null'],
          minimum: 0,
          description: "The contract's subscription limit; null when it sets none (or there is no contract).",
        },
      },
      additionalProperties: false,
    },
    DeletedSubscription: DELETED(ID),
  };
}

export function subscriptionPaths(examples: Examples): Record<string, Json> {
  const ex = (id: string) => examples.operations[id];
  const base = { tags: [SUBSCRIPTIONS_TAG.name], security: LOOKUP_SECURITY };
  const calling = { '400': null, '401': null, '403': null, '451': null, '500': null, '503': null };
  const notFound = { '404': "No such subscription, or another organization's." };
  const pathId = (operationId: string) => ({
    name: 'id',
    in: 'path',
    required: true,
    description: 'The subscription id; one that is not a number answers 400.',
    schema: ID,
    ...(ex(operationId)?.request.query?.id ? { example: Number(ex(operationId)!.request.query!.id) } : {}),
  });
  return {
    '/v2/subscriptions': {
      get: {
        ...base,
        operationId: 'listSubscriptions',
        summary: 'List subscriptions',
        description: `Your organization's live subscriptions, newest first, ${SUBSCRIPTION_LIMITS.page} at most; the next page with \`before\` the last id. Keyed by id.`,
        parameters: [
          {
            name: 'before',
            in: 'query',
            required: false,
            description: 'Only subscriptions with a smaller id (the next page).',
            schema: ID,
          },
        ],
        responses: {
          '200': jsonReply(
            "The subscriptions, by id, and the organization's live count against its limit.",
            ref('SubscriptionList'),
            ex('listSubscriptions'),
          ),
          ...errors(calling),
        },
      },
      post: {
        ...base,
        operationId: 'createSubscription',
        summary: 'Subscribe to an identity',
        description: `Subscribes to one identity: by \`identityId\`, or by exactly one input (${SUBSCRIPTION_INPUTS.join(', ')}) resolved now as a lookup resolves it (the holder most recently seen with it). A suppressed person is answered as a missing one (404). \`template\` shapes each event's record (Full by default). At most the contract's subscription limit of live subscriptions per organization (409 naming it). Counts as a request against the key's and the contract's rate limits, as a lookup does.`,
        parameters: [IDEMPOTENCY_KEY, requestedWith(false), CONTENT_ENCODING],
        requestBody: jsonBody(subscriptionBody, ex('createSubscription')),
        responses: {
          '201': {
            ...jsonReply('The new subscription.', ref('Subscriptions'), ex('createSubscription')),
            headers: { ...BASE_HEADERS, ...RATE_HEADERS, 'Idempotent-Replayed': header('IdempotentReplayed') },
          },
          ...errors({
            ...calling,
            '402': null,
            '404': 'No identity with this id, or no one holds this input (or the person is suppressed).',
            '409':
              "The organization has reached its contract's subscription limit (the text names it), or the first request with this Idempotency-Key is still running.",
            '413': null,
            '415': 'The body is not application/json, or its Content-Encoding is not gzip, deflate or br.',
            '422': 'The template cannot be compiled, or this Idempotency-Key was used with another request.',
            '429': null,
          }),
        },
      },
    },
    '/v2/subscriptions/{id}': {
      get: {
        ...base,
        operationId: 'getSubscription',
        summary: 'Read a subscription',
        description: 'One live subscription of your organization.',
        parameters: [pathId('getSubscription')],
        responses: {
          '200': jsonReply('The subscription.', ref('Subscriptions'), ex('getSubscription')),
          ...errors({ ...calling, ...notFound }),
        },
      },
      delete: {
        ...base,
        operationId: 'deleteSubscription',
        summary: 'Delete a subscription',
        description: 'Ends it: no event is made for it after this (one already made is still delivered and billed).',
        parameters: [pathId('deleteSubscription'), requestedWith(false)],
        responses: {
          '200': jsonReply(
            'The subscription marked deleted: `{subscriptions: {id: {id, deletedAt}}}`.',
            {
              type: 'object',
              required: ['subscriptions'],
              properties: { subscriptions: { type: 'object', additionalProperties: ref('DeletedSubscription') } },
            },
            ex('deleteSubscription'),
          ),
          ...errors({ ...calling, ...notFound }),
        },
      },
    },
  };
}
