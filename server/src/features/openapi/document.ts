/**
 * /v2/openapi.json (issue 5): OpenAPI 3.1 built from the same definitions the routes validate with: the lookup
 * endpoints and their inputs (common/lookups.ts), the lookup options schema, the lookup record schema, the key
 * bodies' zod schemas, the error body. Published as docs/openapi.json; compat.ts keeps later versions compatible.
 */

import { SESSION_COOKIE } from '@tessera/common/entities';
import { ERROR_CODES } from '@tessera/common/errors';
import {
  IDEMPOTENCY,
  INPUT_DESCRIPTIONS,
  type InputName,
  LOOKUP_ENDPOINT_NAMES,
  LOOKUP_ENDPOINTS,
  LOOKUP_LIMITS,
  type LookupEndpoint,
  plainKeyOf,
} from '@tessera/common/lookups';
import { z } from 'zod';
import { lookupRecordSchema } from '../identities/lookup-record';
import { optionsSchema } from '../identities/options';
import { keyBody, keyPatch, rotateBody } from '../keys/schemas';

/** The document's version: a breaking change needs a new major version and a note in docs/api-changes.md. */
export const API_VERSION = '2.0.0';

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const schemaOf = (schema: z.ZodType, io: 'input' | 'output' = 'input'): Json => {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});
const ERRORS: Record<string, Json> = {
  '400': errorResponse('An input, option or header is malformed; `fields` names each.'),
  '401': errorResponse('No credentials, or an API key that is unknown, expired or wrongly signed.'),
  '402': errorResponse("Payment Error: the organization's contract is not in force or its monthly limit is reached."),
  '403': errorResponse('The key may not be used from this address, or its user is no longer active.'),
  '422': errorResponse(
    'The template failed on a record (its error), or an Idempotency-Key reused for another request.',
  ),
  '429': {
    description: "Past the key's or the organization's requests a minute; Retry-After says when to try again.",
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
    content: { 'application/json': { schema: ref('Error') } },
  },
  '503': errorResponse('Usage could not be recorded, so the call was neither answered nor charged; retry.'),
};
const RATE_HEADERS = {
  'RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests a minute of the tighter limit.' },
  'RateLimit-Remaining': { schema: { type: 'integer' } },
  'RateLimit-Reset': { schema: { type: 'integer' }, description: 'Seconds until the current window ends.' },
};
const IDEMPOTENCY_PARAM = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY.maxKeyLength },
  description: `Makes a retry safe: a repeat of the same request within ${IDEMPOTENCY.keepHours} hours gets the first reply (Idempotent-Replayed: true), not charged again; 409 while the first runs.`,
};

function optionParameters(): Json[] {
  const options = schemaOf(optionsSchema) as { properties: Record<string, Json> };
  return Object.entries(options.properties).map(([name, schema]) => ({ name, in: 'query', required: false, schema }));
}

function lookupPaths(endpoint: LookupEndpoint): Json {
  const inputs = LOOKUP_ENDPOINTS[endpoint] as readonly string[];
  const plain = plainKeyOf(endpoint);
  const inputObject = {
    type: 'object',
    properties: Object.fromEntries(
      inputs.map((i) => [i, { type: 'string', description: INPUT_DESCRIPTIONS[i as InputName] }]),
    ),
    additionalProperties: false,
  };
  const tag = ['Lookups'];
  const ok = (schema: Json) => ({
    description: 'Identities for each input, best score first; empty when nothing matches.',
    headers: RATE_HEADERS,
    content: { 'application/json': { schema }, 'text/csv': { schema: { type: 'string' } } },
  });
  return {
    get: {
      operationId: `get${endpoint[0]!.toUpperCase()}${endpoint.slice(1)}`,
      summary: `Look up one input ${endpoint === 'byAny' ? 'by any key or PII' : `by ${inputs.join(', ')}`}`,
      tags: tag,
      parameters: [
        ...inputs.map((i) => ({
          name: i,
          in: 'query',
          required: inputs.length === 1,
          schema: { type: 'string' },
          description: INPUT_DESCRIPTIONS[i as InputName],
        })),
        ...optionParameters(),
      ],
      responses: { '200': ok(ref('LookupResult')), ...ERRORS },
    },
    post: {
      operationId: `post${endpoint[0]!.toUpperCase()}${endpoint.slice(1)}`,
      summary: `Look up up to ${LOOKUP_LIMITS.maxInputs.toLocaleString('en-US')} inputs in one call`,
      tags: tag,
      parameters: [IDEMPOTENCY_PARAM],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['inputs'],
              properties: {
                inputs: {
                  type: 'array',
                  minItems: 1,
                  maxItems: LOOKUP_LIMITS.maxInputs,
                  items: plain
                    ? { anyOf: [{ type: 'string', description: `The ${plain}` }, inputObject] }
                    : inputObject,
                },
                ...(schemaOf(optionsSchema) as { properties: Json }).properties,
              },
            },
          },
        },
      },
      responses: {
        '200': ok(ref('BatchResult')),
        '409': errorResponse('The first request with this Idempotency-Key is still running.'),
        ...ERRORS,
      },
    },
    put: {
      operationId: `put${endpoint[0]!.toUpperCase()}${endpoint.slice(1)}`,
      summary: "Look up every row of a CSV (header row of input columns), streamed back with the template's columns",
      tags: tag,
      parameters: [IDEMPOTENCY_PARAM, ...optionParameters()],
      requestBody: { required: true, content: { 'text/csv': { schema: { type: 'string' } } } },
      responses: {
        '200': {
          description: "The input rows with the template's columns and an error column appended, streamed.",
          headers: RATE_HEADERS,
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        '409': errorResponse('The first request with this Idempotency-Key is still running.'),
        ...ERRORS,
      },
    },
  };
}

const apiKey = {
  type: 'object',
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
    id: { type: 'string', pattern: '^[A-Za-z0-9]{16}$' },
    name: { type: 'string' },
    userId: { type: 'integer' },
    organizationId: { type: ['integer', 'null'] },
    lastFour: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    expiresAt: { type: ['string', 'null'], format: 'date-time' },
    ipAllowlist: { type: 'array', items: { type: 'string' } },
    rateLimit: { type: ['integer', 'null'] },
    allowedRecordTypes: { type: 'array', items: { type: 'string' } },
    legacy: { type: 'boolean' },
    previousValidUntil: { type: ['string', 'null'], format: 'date-time' },
    lastUsedAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'The start of the hour (UTC) of the latest call made with the key; null if never used.',
    },
    callsThisMonth: { type: 'integer', description: 'Calls made with the key since the start of this month (UTC).' },
    secret: { type: 'string', description: 'Only in the reply to a creation or rotation: shown once.' },
  },
};
const keyed = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', properties: { keys: { type: 'object', additionalProperties: ref('ApiKey') } } },
    },
  },
});
const consoleOnly = [{ session: [] }];
const keyId = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9]{16}$' } };
const requestedWith = {
  name: 'X-Requested-With',
  in: 'header',
  required: true,
  schema: { type: 'string', const: 'XMLHttpRequest' },
  description: 'Console calls that change something carry it (cross-site defence).',
};

function keyPaths(): Record<string, Json> {
  const tags = ['API keys'];
  const errors = {
    '400': ERRORS['400'],
    '401': ERRORS['401'],
    '403': errorResponse('Not allowed.'),
    '404': errorResponse('No such API key.'),
  };
  return {
    '/v2/keys': {
      get: {
        operationId: 'listKeys',
        tags,
        security: consoleOnly,
        responses: { '200': keyed("Your keys (an administrator's: the organization's)."), ...errors },
      },
      post: {
        operationId: 'createKey',
        tags,
        security: consoleOnly,
        parameters: [requestedWith],
        requestBody: { required: true, content: { 'application/json': { schema: schemaOf(keyBody) } } },
        responses: { '201': keyed('The new key, with its secret shown this once.'), ...errors },
      },
    },
    '/v2/keys/{id}': {
      get: {
        operationId: 'getKey',
        tags,
        security: consoleOnly,
        parameters: [keyId],
        responses: { '200': keyed('The key.'), ...errors },
      },
      put: {
        operationId: 'updateKey',
        tags,
        security: consoleOnly,
        parameters: [keyId, requestedWith],
        requestBody: { required: true, content: { 'application/json': { schema: schemaOf(keyPatch) } } },
        responses: { '200': keyed('The changed key.'), ...errors },
      },
      delete: {
        operationId: 'revokeKey',
        tags,
        security: consoleOnly,
        parameters: [keyId, requestedWith],
        responses: { '200': keyed('The key, marked deleted: refused everywhere from now.'), ...errors },
      },
    },
    '/v2/keys/{id}/rotate': {
      post: {
        operationId: 'rotateKey',
        tags,
        security: consoleOnly,
        parameters: [keyId, requestedWith],
        requestBody: { required: false, content: { 'application/json': { schema: schemaOf(rotateBody) } } },
        responses: { '200': keyed('The key with its new secret, shown this once.'), ...errors },
      },
    },
  };
}

export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const endpoint of LOOKUP_ENDPOINT_NAMES) paths[`/v2/identities/${endpoint}`] = lookupPaths(endpoint);
  Object.assign(paths, keyPaths());
  paths['/v2/openapi.json'] = {
    get: {
      operationId: 'openApi',
      tags: ['Reference'],
      security: [],
      responses: {
        '200': { description: 'This document.', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera identity API',
      version: API_VERSION,
      description:
        'Identity lookups by e-mail, phone, IP, device, hashes, PII, vehicle, id or any of them, with match scores, shaped by templates, as JSON or CSV. Every /v2/identities path also answers at /v1/identities, so clients of the original API switch by changing only the base URL.',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }, { session: [] }],
    tags: [{ name: 'Lookups' }, { name: 'API keys' }, { name: 'Reference' }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            "Bearer {keyId}{secret}; or signed, Bearer {keyId}{time}{hex HMAC-SHA256(secret, time)} with time in epoch milliseconds within 5 minutes; or, for keys that opt in, the original API's Bearer {keyId}{time}{hex md5(time + secret)}. Never in a URL or cookie.",
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'A console session (the playground).',
        },
      },
      schemas: {
        LookupRecord: schemaOf(lookupRecordSchema, 'output'),
        Identity: {
          description:
            'An identity shaped by the template (the default, Full, gives the LookupRecord), with its score.',
          type: 'object',
          required: ['score', 'matchedOn'],
          properties: {
            score: { type: 'number', minimum: 0, maximum: 100 },
            matchedOn: { type: 'array', items: { type: 'string' } },
            explain: { type: 'object', description: "With explain=true: each field's contribution." },
          },
          additionalProperties: true,
        },
        LookupResult: {
          type: 'object',
          required: ['requestId', 'identities'],
          properties: { requestId: { type: 'string' }, identities: { type: 'array', items: ref('Identity') } },
        },
        BatchResult: {
          type: 'object',
          required: ['requestId', 'results'],
          properties: {
            requestId: { type: 'string' },
            results: {
              type: 'array',
              items: {
                type: 'object',
                required: ['input', 'identities'],
                properties: { input: {}, identities: { type: 'array', items: ref('Identity') } },
              },
            },
          },
        },
        ApiKey: apiKey,
        Error: {
          type: 'object',
          required: ['error', 'code', 'requestId'],
          properties: {
            error: { type: 'string', description: 'What went wrong, in words.' },
            code: { type: 'string', enum: [...ERROR_CODES] },
            requestId: { type: 'string' },
            fields: {
              type: 'array',
              items: {
                type: 'object',
                required: ['path', 'message'],
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}
