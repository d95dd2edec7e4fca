/** The OpenAPI paths of API key management (/v2/keys...). */
import { KEY_MODES } from '@tessera/common/keys';
import { PURPOSE_IDS } from '@tessera/common/purposes';
import { keyBody, keyPatch, rotateBody } from '../keys/schemas';
import { type Examples, type Json, ref } from './base';
import {
  BASE_HEADERS,
  BODY_ERRORS,
  CONSOLE_ERRORS,
  CONSOLE_SECURITY,
  CONTENT_ENCODING,
  ETAG_HEADER,
  errors,
  jsonBody,
  jsonReply,
  requestedWith,
} from './http-parts';

/**
 * Conditional requests on keys and templates (issue 31, common/etag.ts): ETag on their replies, If-None-Match on
 * reads (304), If-Match on edits (412). Shared with template-paths.ts.
 */
export const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'ETags from earlier replies (or `*`): 304 with no body while the reply would carry one of them.',
  schema: { type: 'string' },
};
export const IF_MATCH = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    "The ETag of the item as you loaded it (or `*`): the change is made only if the item's version is still that one, else 412 and nothing changes. A key's usage figures (after the dot) are not compared, so a key in use can be edited. A weak tag (W/) never matches. Without it, the change is made whatever happened meanwhile.",
  schema: { type: 'string' },
};
/** A reply as `reply` says, carrying its ETag. */
export const withETag = (reply: Json): Json => ({ ...reply, headers: { ...reply.headers, ETag: ETAG_HEADER } });
export const NOT_MODIFIED = {
  description: 'Not modified: If-None-Match named the current ETag. No body.',
  headers: { ...BASE_HEADERS, ETag: ETAG_HEADER },
};
/** 412 of an edit of a `what`. */
export const stale = (what: string): Json =>
  errors({ '412': `The ${what} changed after the version If-Match names was loaded: nothing was changed.` });

export const KEY_ID = {
  type: 'string',
  pattern: '^[A-Za-z0-9]{16}$',
  description: 'The key id: 16 letters and digits.',
};

export const API_KEY = {
  type: 'object',
  description: 'An API key as its owner and administrators see it; the secret only once, when made or rotated.',
  required: [
    'id',
    'name',
    'userId',
    'organizationId',
    'lastFour',
    'createdAt',
    'updatedAt',
    'expiresAt',
    'ipAllowlist',
    'rateLimit',
    'allowedRecordTypes',
    'legacy',
    'previousValidUntil',
    'lastUsedAt',
    'callsThisMonth',
  ],
  properties: {
    id: KEY_ID,
    name: { type: 'string', description: "The key's name." },
    mode: {
      type: 'string',
      enum: [...KEY_MODES],
      description: '`live` looks up the identity graph and is metered; `test` answers from the sandbox, free.',
    },
    userId: { type: 'integer', description: 'The user the key acts for.' },
    organizationId: { type: ['integer', 'null'], description: "The user's organization when the key was made." },
    lastFour: { type: 'string', description: 'The last four characters of the secret.' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    expiresAt: { type: ['string', 'null'], format: 'date-time', description: 'Refused from then on; null: never.' },
    ipAllowlist: {
      type: 'array',
      items: { type: 'string' },
      description: 'Addresses or CIDR ranges it may be used from; empty: anywhere.',
    },
    rateLimit: { type: ['integer', 'null'], description: 'Requests a minute; null: only the contract limits.' },
    allowedRecordTypes: {
      type: 'array',
      items: { type: 'string' },
      description: "Record types its lookups may read; empty: all of its user's.",
    },
    legacy: { type: 'boolean', description: "Whether the original API's MD5-signed form is accepted." },
    defaultPurpose: {
      type: ['string', 'null'],
      enum: [...PURPOSE_IDS, null],
      description: 'The permissible purpose its lookups are made for when a call names none; null: none.',
    },
    previousValidUntil: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'After a rotation with a grace: until when the previous secret still works.',
    },
    lastUsedAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description:
        'When the latest call made with the key was metered, to the millisecond (UTC); null if never used. Calls rolled up before this was kept give the start of their hour.',
    },
    callsThisMonth: { type: 'integer', description: 'Calls made with the key since the start of this month (UTC).' },
    secret: { type: 'string', description: 'Only in the reply to a creation or rotation: shown once.' },
  },
  additionalProperties: false,
};

export function keyPaths(examples: Examples): Record<string, Json> {
  const tags = ['API keys'];
  const ex = (id: string) => examples.operations[id];
  const keyId = (id: string) => ({
    name: 'id',
    in: 'path',
    required: true,
    description: 'The key id (16 letters and digits); a malformed one answers 400.',
    schema: KEY_ID,
    ...(ex(id)?.request.query?.id ? { example: ex(id)!.request.query!.id } : {}),
  });
  const notFound = { '404': 'No such key, or not one you may manage.' };
  return {
    '/v2/keys': {
      get: {
        operationId: 'listKeys',
        summary: 'List API keys',
        description:
          "Your live keys; an organization administrator's: the organization's; super and root: every key. Keyed by id.",
        tags,
        security: CONSOLE_SECURITY,
        parameters: [IF_NONE_MATCH],
        responses: {
          '200': withETag(jsonReply('The keys, by id.', ref('ApiKeys'), ex('listKeys'))),
          '304': NOT_MODIFIED,
          ...errors({ '401': null, '451': null, '500': null, '503': null }),
        },
      },
      post: {
        operationId: 'createKey',
        summary: 'Make an API key',
        description:
          'Makes a key for yourself, in your organization. The reply carries its `secret` this once: afterwards only its last four characters are shown. `allowedRecordTypes` must be within your own; an empty list means all of yours.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [requestedWith(true), CONTENT_ENCODING],
        requestBody: jsonBody(keyBody, ex('createKey')),
        responses: {
          '201': jsonReply('The new key, with its secret shown this once.', ref('ApiKeys'), ex('createKey')),
          ...errors({ ...CONSOLE_ERRORS, ...BODY_ERRORS }),
        },
      },
    },
    '/v2/keys/{id}': {
      get: {
        operationId: 'getKey',
        summary: 'Read an API key',
        description: "One key you may manage (yours; as an administrator, your organization members').",
        tags,
        security: CONSOLE_SECURITY,
        parameters: [keyId('getKey'), IF_NONE_MATCH],
        responses: {
          '200': withETag(jsonReply('The key.', ref('ApiKeys'), ex('getKey'))),
          '304': NOT_MODIFIED,
          ...errors({ ...CONSOLE_ERRORS, ...notFound }),
        },
      },
      put: {
        operationId: 'updateKey',
        summary: 'Change an API key',
        description:
          "Changes any of the key's settings; the others stay. Every server process applies the change at once. Record types are bounded by the key's own user's.",
        tags,
        security: CONSOLE_SECURITY,
        parameters: [keyId('updateKey'), requestedWith(true), CONTENT_ENCODING, IF_MATCH],
        requestBody: jsonBody(keyPatch, ex('updateKey')),
        responses: {
          '200': withETag(jsonReply('The changed key.', ref('ApiKeys'), ex('updateKey'))),
          ...stale('key'),
          ...errors({ ...CONSOLE_ERRORS, ...BODY_ERRORS, ...notFound }),
        },
      },
      delete: {
        operationId: 'revokeKey',
        summary: 'Revoke an API key',
        description: 'Revokes the key: refused by every server process from now on. Cannot be undone.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [keyId('revokeKey'), requestedWith(true), IF_MATCH],
        responses: {
          '200': jsonReply(
            'The key marked deleted: `{keys: {id: {id, deletedAt}}}`.',
            {
              type: 'object',
              required: ['keys'],
              properties: { keys: { type: 'object', additionalProperties: ref('DeletedKey') } },
            },
            ex('revokeKey'),
          ),
          ...stale('key'),
          ...errors({ ...CONSOLE_ERRORS, ...notFound }),
        },
      },
    },
    '/v2/keys/{id}/rotate': {
      post: {
        operationId: 'rotateKey',
        summary: "Rotate an API key's secret",
        description:
          'Gives the key a new secret, shown this once. With graceSeconds the previous secret keeps working that long (previousValidUntil), so clients can switch without downtime.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [keyId('rotateKey'), requestedWith(true), CONTENT_ENCODING, IF_MATCH],
        requestBody: jsonBody(rotateBody, ex('rotateKey'), false),
        responses: {
          '200': withETag(jsonReply('The key with its new secret, shown this once.', ref('ApiKeys'), ex('rotateKey'))),
          ...stale('key'),
          ...errors({ ...CONSOLE_ERRORS, ...BODY_ERRORS, ...notFound }),
        },
      },
    },
  };
}
