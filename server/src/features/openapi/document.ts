/**
 * /v2/openapi.json (issue 5, issue 14, decision 0026): OpenAPI 3.1 generated from the definitions the routes
 * validate with: the lookup endpoints and their inputs and rules (common/lookups.ts), the lookup options schema, the
 * lookup record schema, any zod schema identities/inputs.ts exports for a batch input's extra fields, the key and
 * template bodies' zod schemas, and the error body. Replies are typed here and checked against real replies by
 * conformance.test.ts, which also captures the examples (examples.json). Published as docs/openapi.json;
 * compat.ts keeps later versions compatible.
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
  PII_MESSAGES,
  plainKeyOf,
  RATE_WINDOW_MS,
} from '@tessera/common/lookups';
import { z } from 'zod';
import { COMPRESSION_THRESHOLD, REQUEST_ENCODINGS } from '../../http/compression';
import { STREAM_BATCH } from '../identities/csv-stream';
import * as inputsModule from '../identities/inputs';
import { lookupRecordSchema } from '../identities/lookup-record';
import { OPTION_NAMES, optionsSchema } from '../identities/options';
import { keyBody, keyPatch, rotateBody } from '../keys/schemas';
import { createTemplateBody, previewBody, restoreBody, updateTemplateBody } from '../templates/schemas';
import capturedExamples from './examples.json';

/** The document's version: a breaking change needs a new major version and a note in docs/api-changes.md. */
export const API_VERSION = '2.1.0';

/** Where the published copy (docs/openapi.json) says the API is; a server's own document names its PUBLIC_URL. */
export const PUBLISHED_SERVER = 'http://localhost:3000';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are JSON of any shape
type Json = Record<string, any>;

/** A real request and its reply for one operation, captured by conformance.test.ts (UPDATE_OPENAPI=1). */
export interface CapturedExample {
  request: { query?: Record<string, string>; body?: unknown; csv?: string };
  status: number;
  json?: unknown;
  csv?: string;
  /** The same request answered as CSV (`format=csv`), for operations that answer both. */
  csvReply?: string;
}
export interface Examples {
  operations: Record<string, CapturedExample>;
  /** One real error reply per status. */
  errors: Record<string, unknown>;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const response = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** JSON Schema of a zod schema, as OpenAPI 3.1 takes it (draft 2020-12). */
export function schemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

/** The zod schemas identities/inputs.ts exports for extra fields of a POST input (e.g. `metadata`), by field. */
export function inputExtras(): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const [name, value] of Object.entries(inputsModule as Record<string, unknown>)) {
    if (!(value instanceof z.ZodType)) continue;
    const field = /^(\w+?)(Schema)?$/.exec(name)?.[1];
    if (field && /metadata/i.test(field)) out.metadata = value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Headers and errors

const HEADERS: Record<string, Json> = {
  XRequestId: {
    description:
      "The request's id (a UUID), also in every error body as `requestId`: quote it when asking about a call.",
    required: true,
    schema: { type: 'string', format: 'uuid' },
  },
  CacheControl: {
    description:
      'Always `no-store` on API replies: they carry personal data or account state, which no browser, proxy or CDN may keep.',
    required: true,
    schema: { type: 'string', examples: ['no-store'] },
  },
  RateLimitPolicy: {
    description:
      'The limits that apply to the call, as the IETF httpapi RateLimit draft writes them: `"key";q=100;w=60` for the API key\'s, `"organization";q=600;w=60` for the contract\'s (requests per 60 s window). Absent when no limit applies.',
    schema: { type: 'string', examples: ['"key";q=100;w=60, "organization";q=600;w=60'] },
  },
  RateLimit: {
    description:
      'The state of the tighter limit (IETF draft): `"key";r=42;t=18` is 42 requests left, 18 s until the window frees one; on a 429, `t` is when a retry is served (equal to Retry-After).',
    schema: { type: 'string', examples: ['"key";r=42;t=18'] },
  },
  RateLimitLimit: {
    description: "Requests a minute of the tighter limit (the draft's earlier revisions).",
    schema: { type: 'integer', minimum: 1 },
  },
  RateLimitRemaining: {
    description: 'Requests left in the current window of the tighter limit.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitReset: {
    description: 'Seconds until the tighter limit serves again; on a 429 equal to Retry-After.',
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying: a retry from then on is served.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  IdempotentReplayed: {
    description:
      '`true` when this is the kept reply to an earlier request with the same Idempotency-Key: it was neither run nor charged again.',
    schema: { type: 'string', const: 'true' },
  },
  ContentDisposition: {
    description: 'On CSV replies: `attachment; filename="{endpoint}-{requestId}.csv"`.',
    schema: { type: 'string', examples: ['attachment; filename="byEmail-7d6f1c2e-0b5a-4e53-9d0e-4f0a8c1b2d3e.csv"'] },
  },
  ContentEncoding: {
    description: `br, gzip or deflate (the first the Accept-Encoding allows, in that order) when the reply is ${COMPRESSION_THRESHOLD} bytes or more; streamed CSV included. Absent: not compressed.`,
    schema: { type: 'string', enum: ['br', 'gzip', 'deflate'] },
  },
  WWWAuthenticate: {
    description: 'How to authenticate: `Bearer realm="tessera"` (an API key in the Authorization header).',
    required: true,
    schema: { type: 'string', const: 'Bearer realm="tessera"' },
  },
};

const BASE_HEADERS = {
  'X-Request-Id': header('XRequestId'),
  'Cache-Control': header('CacheControl'),
  'Content-Encoding': header('ContentEncoding'),
};
const RATE_HEADERS = {
  'RateLimit-Policy': header('RateLimitPolicy'),
  RateLimit: header('RateLimit'),
  'RateLimit-Limit': header('RateLimitLimit'),
  'RateLimit-Remaining': header('RateLimitRemaining'),
  'RateLimit-Reset': header('RateLimitReset'),
};

interface ErrorStatus {
  name: string;
  description: string;
  headers?: Json;
}
/** Every error status the API answers with, and what it means in general; operations say what it means for them. */
const ERROR_STATUSES: Record<string, ErrorStatus> = {
  '400': {
    name: 'BadRequest',
    description:
      'An input, option, header or body is malformed (`code` validation_failed names each in `fields`), or an API key was put in the query string or a cookie.',
  },
  '401': {
    name: 'Unauthorized',
    description:
      'No credentials; or an API key that is unknown, expired, wrongly signed, signed too long ago, or a legacy token on a key without legacy signing.',
    headers: { 'WWW-Authenticate': header('WWWAuthenticate') },
  },
  '402': {
    name: 'PaymentRequired',
    description:
      'Payment Error: the organization has no contract in force (none, not started, ended, suspended, cancelled) or its monthly limit is reached; the text says which and when lookups resume.',
  },
  '403': {
    name: 'Forbidden',
    description:
      'Not allowed: the key may not be used from this address, its user is no longer active or moved organization; a console call without X-Requested-With or from another site; or a role that may not do this.',
  },
  '404': { name: 'NotFound', description: 'The item does not exist or is out of your reach.' },
  '409': { name: 'Conflict', description: 'The request conflicts with the current state (see the operation).' },
  '413': { name: 'PayloadTooLarge', description: 'The request body is over 10 MB.' },
  '415': {
    name: 'UnsupportedMediaType',
    description: 'The request body has a content type this operation does not take.',
  },
  '422': {
    name: 'Unprocessable',
    description:
      'The template failed on a record (its message names the template and the failure), or an Idempotency-Key was reused for a different request.',
  },
  '429': {
    name: 'RateLimited',
    description:
      "Past the key's or the organization's requests a minute. Retry-After (and RateLimit-Reset) say when a retry is served; a refused call is not counted or charged.",
    headers: { 'Retry-After': header('RetryAfter'), ...RATE_HEADERS },
  },
  '451': {
    name: 'LegalNotice',
    description: 'A console session whose user has not accepted the current agreement (accept it on the console).',
  },
  '500': { name: 'InternalError', description: 'An unexpected failure; nothing internal is shown. Retry later.' },
  '503': {
    name: 'Unavailable',
    description:
      'The database is away for a moment, the server is restarting, or usage could not be recorded (so the call was neither answered nor charged). Retry after Retry-After seconds.',
    headers: { 'Retry-After': { ...HEADERS.RetryAfter, required: false } },
  },
};

function errorResponses(examples: Examples): Json {
  return Object.fromEntries(
    Object.entries(ERROR_STATUSES).map(([status, s]) => {
      const example = examples.errors[status];
      return [
        s.name,
        {
          description: s.description,
          headers: { ...BASE_HEADERS, ...RATE_HEADERS, ...s.headers },
          content: { 'application/json': { schema: ref('Error'), ...(example ? { example } : {}) } },
        },
      ];
    }),
  );
}

/** The error responses of an operation: each status its shared response, or with the operation's own words. */
function errors(statuses: Record<string, string | null>): Json {
  return Object.fromEntries(
    Object.entries(statuses).map(([status, words]) => {
      const shared = ERROR_STATUSES[status]!;
      if (!words) return [status, response(shared.name)];
      return [status, { ...response(shared.name), description: words }];
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Security

const LOOKUP_SECURITY = [{ apiKey: [] }, { signedKey: [] }, { legacyKey: [] }, { session: [] }];
const CONSOLE_SECURITY = [{ session: [] }];

const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: '{keyId}{secret}',
    description:
      '`Authorization: Bearer {keyId}{secret}`: the 16-character key id followed by its 32-character secret (48 letters and digits), as shown once when the key is made or rotated. Only in the Authorization header: a key in a query parameter or a cookie is refused with 400 even when the header is right. A key with an IP allowlist answers 403 from other addresses.',
  },
  signedKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: '{keyId}{time}{signature}',
    description:
      "`Authorization: Bearer {keyId}{time}{signature}`, so the secret never travels: `time` is the current time in epoch milliseconds (decimal) and must be within 5 minutes of the server's clock; `signature` is the lowercase hex HMAC-SHA256 of the `time` text keyed with the secret (64 hex digits).",
  },
  legacyKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: '{keyId}{time}{md5}',
    description:
      "The original API's form, only for keys with `legacy` on: `Authorization: Bearer {keyId}{time}{md5}`, `md5` the lowercase hex MD5 of `time` followed by the secret; `time` epoch milliseconds in base 10, 32 or 36, hashed exactly as sent; accepted while at most 35 minutes old and at most 5 minutes ahead.",
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      "A console session (sign in at /auth/login). Calls that change something also need the header `X-Requested-With: XMLHttpRequest` and, when the browser sends an Origin, this server's origin. A request with an Authorization header is never taken as a session.",
  },
};

/** Every operation with a body takes it compressed. */
const CONTENT_ENCODING = {
  name: 'Content-Encoding',
  in: 'header',
  required: false,
  description:
    'The body may be sent compressed with gzip, deflate or br; it is decompressed as it is read and its size limit counts the decompressed bytes (413 past it). Any other encoding answers 415; a body that does not decompress, 400.',
  schema: { type: 'string', enum: [...REQUEST_ENCODINGS] },
  example: 'gzip',
};

const requestedWith = (required: boolean) => ({
  name: 'X-Requested-With',
  in: 'header',
  required,
  schema: { type: 'string', const: 'XMLHttpRequest' },
  description: required
    ? 'Console calls that change something carry it (a cross-site form cannot); without it 403.'
    : 'Needed (as `XMLHttpRequest`) only when calling with a console session rather than an API key; without it such a call answers 403.',
});

// ---------------------------------------------------------------------------------------------------------------
// Lookups

type OptionName = (typeof OPTION_NAMES)[number];
/** What each option of optionsSchema does and its default: a new option without words here fails typecheck. */
const OPTION_DOCS: Record<OptionName, { description: string; default?: unknown }> = {
  template: {
    description:
      'The id of the template that shapes each identity. Default 1, Full: the whole lookup record (schema FullIdentity). Other templates give the fields their expression makes. An unknown id answers 400, a deleted one 404.',
    default: 1,
  },
  minScore: {
    description: `Return only identities scoring at least this (0 to 100). By default every exact key match is returned and a name-and-address (PII) candidate from ${LOOKUP_LIMITS.piiMinScore}, where the model finds it more likely than not.`,
  },
  explain: {
    description: "With true, each identity carries `explain`: each field's contribution to its score.",
    default: false,
  },
  limit: {
    description: `Identities returned per input, best score first: 1 to ${LOOKUP_LIMITS.maxLimit}.`,
    default: LOOKUP_LIMITS.defaultLimit,
  },
  format: {
    description:
      'json or csv. Without it the reply is CSV when the Accept header names text/csv and not application/json, otherwise JSON.',
    default: 'json',
  },
};

function optionSchemas(except: OptionName[] = []): Record<string, Json> {
  const properties = (schemaOf(optionsSchema) as { properties: Record<string, Json> }).properties;
  const out: Record<string, Json> = {};
  for (const name of OPTION_NAMES) {
    if (except.includes(name)) continue;
    const docs = OPTION_DOCS[name];
    out[name] = { ...properties[name], description: docs.description };
    if (docs.default !== undefined) out[name].default = docs.default;
  }
  return out;
}

/** A query string's text as the parameter's schema types it (examples are checked against the schema). */
function typed(schema: Json, text: string): unknown {
  const types = [schema.type, ...(schema.anyOf ?? []).map((s: Json) => s.type)].flat();
  if (types.includes('integer') || types.includes('number')) return Number(text);
  if (types.includes('boolean')) return text === 'true';
  return text;
}

function optionParameters(except: OptionName[] = [], example: Record<string, string> = {}): Json[] {
  return Object.entries(optionSchemas(except)).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name,
      in: 'query',
      required: false,
      description,
      schema: rest,
      ...(example[name] !== undefined ? { example: typed(rest, example[name]) } : {}),
    };
  });
}

/** What each endpoint finds people by, in a summary's words. */
const FINDS_BY: Record<LookupEndpoint, string> = {
  byAny: 'any key, name or address',
  byDevice: 'advertising id',
  byEmail: 'e-mail address',
  byId: 'Tessera id',
  byIp: 'IP address',
  byMd5: 'e-mail MD5',
  byPhone: 'phone number',
  byPii: 'name and address',
  bySha256: 'e-mail SHA-256',
  byVehicle: 'vehicle VIN',
};

const PII_RULE = `${PII_MESSAGES.names} ${PII_MESSAGES.place} ${PII_MESSAGES.houseNumber} Names are compared by sound, nickname and spelling; the address, city, state and ZIP raise or lower the score. Candidates are scored by the fitted model (up to ${LOOKUP_LIMITS.piiCandidates} per input) and returned from score ${LOOKUP_LIMITS.piiMinScore} unless minScore says otherwise.`;

function endpointRules(endpoint: LookupEndpoint): string {
  const inputs = LOOKUP_ENDPOINTS[endpoint] as readonly InputName[];
  if (endpoint === 'byPii') return PII_RULE;
  if (endpoint === 'byAny')
    return `Give any of ${inputs.join(', ')}: every exact key given is searched, and a name with a place is searched as a PII lookup too (${PII_MESSAGES.names} ${PII_MESSAGES.place}). At least one input is needed.`;
  return `${INPUT_DESCRIPTIONS[inputs[0]!]} Exact match on the normalized value: a well-formed input either matches or finds nothing.`;
}

const inputRequired = (endpoint: LookupEndpoint): string[] =>
  endpoint === 'byPii' ? ['firstName', 'lastName'] : plainKeyOf(endpoint) ? [plainKeyOf(endpoint)!] : [];

function inputObject(endpoint: LookupEndpoint): Json {
  const inputs = LOOKUP_ENDPOINTS[endpoint] as readonly InputName[];
  const properties: Json = Object.fromEntries(
    inputs.map((i) => [
      i,
      {
        type: 'string',
        description: INPUT_DESCRIPTIONS[i],
        ...(i === 'firstName' || i === 'lastName' || i === 'address' || i === 'city'
          ? { maxLength: LOOKUP_LIMITS.maxPiiLength }
          : {}),
      },
    ]),
  );
  for (const [name, schema] of Object.entries(inputExtras())) properties[name] = schemaOf(schema);
  const required = inputRequired(endpoint);
  return {
    type: 'object',
    description: `Named inputs of ${endpoint}.${endpoint === 'byAny' ? ' At least one is needed.' : ''}`,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** The query parameters of an example request, e.g. { email: 'a@b.example', limit: '3' }. */
const queryOf = (example: CapturedExample | undefined) => example?.request.query ?? {};

function jsonAndCsv(schema: Json, example: CapturedExample | undefined): Json {
  return {
    'application/json': { schema, ...(example?.json !== undefined ? { example: example.json } : {}) },
    'text/csv': {
      schema: {
        type: 'string',
        description:
          "A header row of `input.{name}` columns, score, matchedOn and the template's columns (nested fields flattened with dots), then one row per identity (one empty row for an input that matched nothing).",
      },
      ...(example?.csvReply !== undefined ? { example: example.csvReply } : {}),
    },
  };
}

function lookupPaths(endpoint: LookupEndpoint, examples: Examples): Json {
  const inputs = LOOKUP_ENDPOINTS[endpoint] as readonly InputName[];
  const plain = plainKeyOf(endpoint);
  const name = capital(endpoint);
  const by = FINDS_BY[endpoint];
  const tags = ['Lookups'];
  const required = inputRequired(endpoint);
  const get = examples.operations[`get${name}`];
  const post = examples.operations[`post${name}`];
  const put = examples.operations[`put${name}`];
  const common = {
    '400': null,
    '401': null,
    '402': null,
    '403': null,
    '404': 'The template named by `template` was deleted.',
    '422': null,
    '429': null,
    '451': null,
    '500': null,
    '503': null,
  };
  const idempotency = {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY.maxKeyLength, pattern: '^[\\x21-\\x7E]+$' },
    description: `Makes a retry safe: a repeat of the same request (method, path, query and body) within ${IDEMPOTENCY.keepHours} hours gets the first reply again with Idempotent-Replayed: true, neither run nor charged. The same key with another request answers 422; while the first still runs, 409. Keys are per API key (per user for console sessions).`,
    example: 'order-2041-retry-1',
  };
  const okHeaders = { ...BASE_HEADERS, ...RATE_HEADERS };
  const batchHeaders = {
    ...okHeaders,
    'Idempotent-Replayed': header('IdempotentReplayed'),
    'Content-Disposition': header('ContentDisposition'),
  };
  return {
    description: `Lookups ${by}. HEAD, DELETE and PATCH answer 405 with Allow (a HEAD would run and bill a lookup); OPTIONS answers 204 with Allow and no CORS headers, so browsers refuse cross-origin calls: a key must never live in a web page. Every path also answers at /v1/identities/${endpoint}.`,
    get: {
      operationId: `get${name}`,
      summary: `Look up one person by ${by}`,
      description: `${endpointRules(endpoint)} The input is given in the query string beside the options; any other name is refused (400). Replies JSON, or CSV by format=csv or Accept: text/csv. Metered and charged as one request.`,
      tags,
      security: LOOKUP_SECURITY,
      parameters: [
        ...inputs.map((i) => ({
          name: i,
          in: 'query',
          required: required.includes(i),
          description: INPUT_DESCRIPTIONS[i],
          schema: { type: 'string' },
          ...(queryOf(get)[i] !== undefined ? { example: queryOf(get)[i] } : {}),
        })),
        ...optionParameters([], queryOf(get)),
      ],
      responses: {
        '200': {
          description: 'The identities found, best score first; an empty list when nothing matches.',
          headers: { ...okHeaders, 'Content-Disposition': header('ContentDisposition') },
          content: jsonAndCsv(ref('LookupResult'), get),
        },
        ...errors(common),
      },
    },
    post: {
      operationId: `post${name}`,
      summary: `Look up to ${LOOKUP_LIMITS.maxInputs.toLocaleString('en-US')} people by ${by}`,
      description: `${endpointRules(endpoint)} Up to ${LOOKUP_LIMITS.maxInputs.toLocaleString('en-US')} inputs in one call${plain ? `, each the ${plain} as a string or an object of named inputs` : ', each an object of named inputs'}; every input's errors are reported at once (400, up to 20). Results come in the order of the inputs, each echoing its input. Options go in the body beside \`inputs\`; any other name is refused. Send an Idempotency-Key to retry safely. For more inputs, PUT a CSV.`,
      tags,
      security: LOOKUP_SECURITY,
      parameters: [idempotency, requestedWith(false), CONTENT_ENCODING],
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
                  description: 'The inputs to look up.',
                  minItems: 1,
                  maxItems: LOOKUP_LIMITS.maxInputs,
                  items: plain
                    ? { anyOf: [{ type: 'string', description: INPUT_DESCRIPTIONS[plain] }, inputObject(endpoint)] }
                    : inputObject(endpoint),
                },
                ...optionSchemas(),
              },
              additionalProperties: false,
            },
            ...(post?.request.body !== undefined ? { example: post.request.body } : {}),
          },
        },
      },
      responses: {
        '200': {
          description: "Each input's identities, in the order of the inputs.",
          headers: batchHeaders,
          content: jsonAndCsv(ref('BatchResult'), post),
        },
        ...errors({
          ...common,
          '409': 'The first request with this Idempotency-Key is still running.',
          '413': null,
          '415': 'The body is not application/json, or its Content-Encoding is not gzip, deflate or br.',
          '422': null,
        }),
      },
    },
    put: {
      operationId: `put${name}`,
      summary: `Look up a CSV of people by ${by}`,
      description: `${endpointRules(endpoint)} The body is CSV (RFC 4180, comma-separated) with a header row naming input columns of ${endpoint} (${inputs.join(', ')}); other columns (your own ids, say) are not read as inputs and are written back in their place, row by row. A header naming no input, or a column twice, is refused (400). Any number of rows, streamed back in constant memory with the template's columns and an \`error\` column appended. Problems with the header or the first ${STREAM_BATCH} rows answer with a status; a bad row later gets its reason in the error column. The reply is always CSV. Usage is recorded when the last row is written; if that fails the reply is cut short (not a 503), so it cannot be mistaken for complete. When the server restarts mid-stream, the last row says from which line to send again. Send an Idempotency-Key to retry safely.`,
      tags,
      security: LOOKUP_SECURITY,
      parameters: [idempotency, requestedWith(false), CONTENT_ENCODING, ...optionParameters(['format'], queryOf(put))],
      requestBody: {
        required: true,
        content: {
          'text/csv': {
            schema: { type: 'string', description: 'A header row of input columns, then one input per row.' },
            ...(put?.request.csv !== undefined ? { example: put.request.csv } : {}),
          },
        },
      },
      responses: {
        '200': {
          description: "The input rows with the template's columns and an `error` column appended, streamed.",
          headers: batchHeaders,
          content: {
            'text/csv': {
              schema: {
                type: 'string',
                description:
                  "The input columns, score, matchedOn, the template's columns (nested fields flattened with dots) and `error`: one row per identity, one row for an input that matched nothing or failed.",
              },
              ...(put?.csv !== undefined ? { example: put.csv } : {}),
            },
          },
        },
        ...errors({
          ...common,
          '409': 'The first request with this Idempotency-Key is still running, or its reply was too large to keep.',
          '413': 'A compressed body decompresses to over 200 times its size.',
          '415': 'The body is not text/csv (or application/csv), or its Content-Encoding is not gzip, deflate or br.',
        }),
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Keys

const KEY_ID = { type: 'string', pattern: '^[A-Za-z0-9]{16}$', description: 'The key id: 16 letters and digits.' };

const API_KEY = {
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
    previousValidUntil: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'After a rotation with a grace: until when the previous secret still works.',
    },
    lastUsedAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'The start of the hour (UTC) of the latest call made with the key; null if never used.',
    },
    callsThisMonth: { type: 'integer', description: 'Calls made with the key since the start of this month (UTC).' },
    secret: { type: 'string', description: 'Only in the reply to a creation or rotation: shown once.' },
  },
  additionalProperties: false,
};

const DELETED = (id: Json) => ({
  type: 'object',
  description: 'The item marked deleted: a client removes it from its list.',
  required: ['id', 'deletedAt'],
  properties: { id, deletedAt: { type: 'string', format: 'date-time' } },
  additionalProperties: false,
});

function jsonReply(description: string, schema: Json, example: CapturedExample | undefined): Json {
  return {
    description,
    headers: BASE_HEADERS,
    content: { 'application/json': { schema, ...(example?.json !== undefined ? { example: example.json } : {}) } },
  };
}

function jsonBody(schema: z.ZodType, example: CapturedExample | undefined, required = true): Json {
  return {
    required,
    content: {
      'application/json': {
        schema: schemaOf(schema),
        ...(example?.request.body !== undefined ? { example: example.request.body } : {}),
      },
    },
  };
}

const CONSOLE_ERRORS = { '400': null, '401': null, '403': null, '451': null, '500': null, '503': null };
const BODY_ERRORS = {
  '413': null,
  '415': 'The body is not application/json, or its Content-Encoding is not gzip, deflate or br.',
};

function keyPaths(examples: Examples): Record<string, Json> {
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
        responses: {
          '200': jsonReply('The keys, by id.', ref('ApiKeys'), ex('listKeys')),
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
        parameters: [keyId('getKey')],
        responses: {
          '200': jsonReply('The key.', ref('ApiKeys'), ex('getKey')),
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
        parameters: [keyId('updateKey'), requestedWith(true), CONTENT_ENCODING],
        requestBody: jsonBody(keyPatch, ex('updateKey')),
        responses: {
          '200': jsonReply('The changed key.', ref('ApiKeys'), ex('updateKey')),
          ...errors({ ...CONSOLE_ERRORS, ...BODY_ERRORS, ...notFound }),
        },
      },
      delete: {
        operationId: 'revokeKey',
        summary: 'Revoke an API key',
        description: 'Revokes the key: refused by every server process from now on. Cannot be undone.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [keyId('revokeKey'), requestedWith(true)],
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
        parameters: [keyId('rotateKey'), requestedWith(true), CONTENT_ENCODING],
        requestBody: jsonBody(rotateBody, ex('rotateKey'), false),
        responses: {
          '200': jsonReply('The key with its new secret, shown this once.', ref('ApiKeys'), ex('rotateKey')),
          ...errors({ ...CONSOLE_ERRORS, ...BODY_ERRORS, ...notFound }),
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Templates

const TEMPLATE_ID = { type: 'integer', minimum: 1, maximum: 2_147_483_647, description: 'The template id.' };

const TEMPLATE_VERSION = {
  type: 'object',
  required: ['version', 'expression', 'publishedAt', 'createdBy'],
  properties: {
    version: { type: 'integer', minimum: 1 },
    expression: { type: 'string' },
    publishedAt: { type: 'string', format: 'date-time' },
    createdBy: { type: ['integer', 'null'] },
  },
  additionalProperties: false,
};

const TEMPLATE = {
  type: 'object',
  description:
    'A template: a JSONata expression over the lookup record (LookupRecord) that shapes each identity, kept as numbered immutable published versions and at most one open draft. Lookups use the published version.',
  required: [
    'id',
    'name',
    'description',
    'organizationId',
    'adminIds',
    'createdBy',
    'createdAt',
    'updatedAt',
    'publishedVersion',
    'expression',
    'draft',
  ],
  properties: {
    id: TEMPLATE_ID,
    name: { type: 'string' },
    description: { type: 'string' },
    organizationId: { type: ['integer', 'null'], description: 'Null for a system template, shared with everyone.' },
    adminIds: { type: 'array', items: { type: 'integer' }, description: 'Users and organizations that may edit it.' },
    createdBy: { type: ['integer', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    publishedVersion: { type: ['integer', 'null'], description: 'The version lookups use; null before the first.' },
    expression: { type: 'string', description: "The published version's expression; '' before the first." },
    draft: {
      oneOf: [
        {
          type: 'object',
          required: ['expression', 'version', 'updatedAt', 'createdBy'],
          properties: {
            expression: { type: 'string' },
            version: { type: 'integer', description: 'The version it will be published as.' },
            updatedAt: { type: 'string', format: 'date-time' },
            createdBy: { type: ['integer', 'null'] },
          },
          additionalProperties: false,
        },
        { type: 'null' },
      ],
      description: 'The open draft, or null.',
    },
    versions: {
      type: 'array',
      items: ref('TemplateVersion'),
      description: 'Every published version, newest first: in the reply to GET /v2/templates/{id} and to changes.',
    },
    deletedAt: { type: ['string', 'null'], format: 'date-time' },
  },
  additionalProperties: false,
};

function templatePaths(examples: Examples): Record<string, Json> {
  const tags = ['Templates'];
  const ex = (id: string) => examples.operations[id];
  const templateId = (id: string) => ({
    name: 'id',
    in: 'path',
    required: true,
    description: 'The template id.',
    schema: TEMPLATE_ID,
    ...(ex(id)?.request.query?.id ? { example: Number(ex(id)!.request.query!.id) } : {}),
  });
  const notFound = { '404': 'No such template, or not one you may see.' };
  // Templates are refused before the agreement gate: a session that has not accepted it is 403, not 451.
  const CONSOLE_ERRORS = {
    '400': null,
    '401': null,
    '403': 'Not allowed, including a session that has not accepted the current agreement.',
    '500': null,
    '503': null,
  };
  const notEditable = { '403': 'You may see the template but not edit it.' };
  const reply = (id: string, words: string) => jsonReply(words, ref('Templates'), ex(id));
  return {
    '/v2/templates': {
      get: {
        operationId: 'listTemplates',
        summary: 'List templates',
        description:
          "The templates you may use: the system templates (Full, id 1, and the others), your organization's and those naming you in adminIds; super and root: all. Without versions.",
        tags,
        security: CONSOLE_SECURITY,
        responses: {
          '200': reply('listTemplates', 'The templates, by id.'),
          ...errors({ '401': null, '403': CONSOLE_ERRORS['403'], '500': null, '503': null }),
        },
      },
      post: {
        operationId: 'createTemplate',
        summary: 'Make a template',
        description:
          'Makes a template of your organization whose first draft is the expression; publish it to use it in lookups. Super and root may make one for another organization or, with organizationId null, a system template. The expression must compile (400 with line and column otherwise).',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [requestedWith(true), CONTENT_ENCODING],
        requestBody: jsonBody(createTemplateBody, ex('createTemplate')),
        responses: {
          '200': reply('createTemplate', 'The new template.'),
          ...errors({
            ...CONSOLE_ERRORS,
            ...BODY_ERRORS,
            '403':
              'Only super and root make system templates or templates of another organization; you need an organization.',
          }),
        },
      },
    },
    '/v2/templates/{id}': {
      get: {
        operationId: 'getTemplate',
        summary: 'Read a template',
        description: 'One template you may see, with every published version.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [templateId('getTemplate')],
        responses: {
          '200': reply('getTemplate', 'The template with its versions.'),
          ...errors({ ...CONSOLE_ERRORS, ...notFound }),
        },
      },
      put: {
        operationId: 'updateTemplate',
        summary: 'Change a template or its draft',
        description:
          'Changes the name, description or adminIds, and with an expression saves the draft (replacing the open one). Lookups keep using the published version until the draft is published.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [templateId('updateTemplate'), requestedWith(true), CONTENT_ENCODING],
        requestBody: jsonBody(updateTemplateBody, ex('updateTemplate')),
        responses: {
          '200': reply('updateTemplate', 'The changed template.'),
          ...errors({ ...CONSOLE_ERRORS, ...BODY_ERRORS, ...notEditable, ...notFound }),
        },
      },
      delete: {
        operationId: 'deleteTemplate',
        summary: 'Delete a template',
        description: 'Deletes the template: lookups naming it answer 404 from now on.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [templateId('deleteTemplate'), requestedWith(true)],
        responses: {
          '200': jsonReply(
            'The template marked deleted: `{templates: {id: {id, deletedAt}}}`.',
            {
              type: 'object',
              required: ['templates'],
              properties: { templates: { type: 'object', additionalProperties: ref('DeletedTemplate') } },
            },
            ex('deleteTemplate'),
          ),
          ...errors({ ...CONSOLE_ERRORS, ...notEditable, ...notFound }),
        },
      },
    },
    '/v2/templates/{id}/publish': {
      post: {
        operationId: 'publishTemplate',
        summary: "Publish a template's draft",
        description: 'Makes the open draft the next published version, which lookups use from now on.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [templateId('publishTemplate'), requestedWith(true)],
        responses: {
          '200': reply('publishTemplate', 'The template with its new version.'),
          ...errors({ ...CONSOLE_ERRORS, ...notEditable, ...notFound, '409': 'The template has no draft to publish.' }),
        },
      },
    },
    '/v2/templates/{id}/restore': {
      post: {
        operationId: 'restoreTemplate',
        summary: 'Restore a published version as the draft',
        description: "Makes a published version's expression the open draft; publish it to use it again.",
        tags,
        security: CONSOLE_SECURITY,
        parameters: [templateId('restoreTemplate'), requestedWith(true), CONTENT_ENCODING],
        requestBody: jsonBody(restoreBody, ex('restoreTemplate')),
        responses: {
          '200': reply('restoreTemplate', 'The template with the restored draft.'),
          ...errors({
            ...CONSOLE_ERRORS,
            ...BODY_ERRORS,
            ...notEditable,
            '404': 'No such template or published version.',
          }),
        },
      },
    },
    '/v2/templates/preview': {
      post: {
        operationId: 'previewTemplate',
        summary: 'Preview an unsaved template',
        description:
          'Renders an expression, as JSON or CSV, on a synthetic identity (free), or with sample.identityId on a real one looked up as byId (metered and charged as a lookup, so it can answer 402, 422 and 429 like one). Nothing is saved.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [requestedWith(true), CONTENT_ENCODING],
        requestBody: jsonBody(previewBody, ex('previewTemplate')),
        responses: {
          '200': jsonReply(
            'The rendered identities.',
            {
              type: 'object',
              required: ['preview'],
              properties: { preview: ref('TemplatePreview') },
              additionalProperties: false,
            },
            ex('previewTemplate'),
          ),
          ...errors({ ...CONSOLE_ERRORS, ...BODY_ERRORS, '402': null, '422': null, '429': null }),
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Components and the document

function identitySchemas(): Record<string, Json> {
  const record = schemaOf(lookupRecordSchema, 'output');
  // Open at its top level so FullIdentity can add score and matchedOn, and close it (unevaluatedProperties).
  const { additionalProperties: _closed, ...open } = record;
  const scored = {
    score: { type: 'number', minimum: 0, maximum: 100, description: 'How sure the match is, 0 to 100.' },
    matchedOn: {
      type: 'array',
      items: { type: 'string' },
      description: 'The inputs it matched on (email, phone, pii, ...).',
    },
    explain: { type: 'object', description: "With explain=true: each field's contribution to the score." },
  };
  return {
    LookupRecord: open,
    FullIdentity: {
      title: 'Identity (Full template)',
      description:
        'An identity as the default template, Full (id 1), returns it: its score and what it matched on, then the whole lookup record (LookupRecord). Record types the caller may not see are empty.',
      type: 'object',
      allOf: [ref('LookupRecord')],
      required: ['score', 'matchedOn'],
      properties: scored,
      unevaluatedProperties: false,
    },
    Identity: {
      description:
        'An identity shaped by another template: its score and what it matched on, then whatever fields the template makes (free-form).',
      type: 'object',
      required: ['score', 'matchedOn'],
      properties: scored,
      additionalProperties: true,
    },
    Identities: {
      type: 'array',
      description: 'Identities, best score first: FullIdentity with the Full template, Identity with any other.',
      items: { anyOf: [ref('FullIdentity'), ref('Identity')] },
    },
  };
}

function components(examples: Examples): Json {
  const extras = inputExtras();
  return {
    securitySchemes: SECURITY_SCHEMES,
    headers: HEADERS,
    responses: errorResponses(examples),
    schemas: {
      ...identitySchemas(),
      LookupResult: {
        type: 'object',
        description: 'The reply to a GET lookup.',
        required: ['requestId', 'identities'],
        properties: {
          requestId: { type: 'string', format: 'uuid', description: 'Equal to the X-Request-Id header.' },
          identities: ref('Identities'),
        },
        additionalProperties: false,
      },
      BatchResult: {
        type: 'object',
        description: 'The reply to a POST lookup.',
        required: ['requestId', 'results'],
        properties: {
          requestId: { type: 'string', format: 'uuid', description: 'Equal to the X-Request-Id header.' },
          results: {
            type: 'array',
            description: 'One result per input, in the order of the inputs.',
            items: {
              type: 'object',
              required: ['input', 'identities'],
              properties: {
                input: {
                  description:
                    'The input as sent: the string, or its named inputs (blank ones left out) without extra fields.',
                  anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
                },
                identities: ref('Identities'),
                ...Object.fromEntries(
                  Object.entries(extras).map(([name, schema]) => [
                    name,
                    { ...schemaOf(schema, 'output'), description: `The input's ${name}, echoed as sent.` },
                  ]),
                ),
              },
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
      ApiKey: API_KEY,
      ApiKeys: {
        type: 'object',
        description: 'Keys by id.',
        required: ['keys'],
        properties: { keys: { type: 'object', additionalProperties: ref('ApiKey') } },
        additionalProperties: false,
      },
      DeletedKey: DELETED(KEY_ID),
      Template: TEMPLATE,
      TemplateVersion: TEMPLATE_VERSION,
      Templates: {
        type: 'object',
        description: 'Templates by id.',
        required: ['templates'],
        properties: { templates: { type: 'object', additionalProperties: ref('Template') } },
        additionalProperties: false,
      },
      DeletedTemplate: DELETED(TEMPLATE_ID),
      TemplatePreview: {
        type: 'object',
        required: ['format', 'identities', 'csv', 'metered'],
        properties: {
          format: { type: 'string', enum: ['json', 'csv'] },
          identities: {
            type: 'array',
            items: ref('Identity'),
            description: "The identity as a lookup would return it: score, matchedOn, then the template's fields.",
          },
          csv: { type: ['string', 'null'], description: 'The CSV text (header and rows) when format is csv.' },
          metered: { type: 'boolean', description: 'True when a real identity was looked up, metered and charged.' },
        },
        additionalProperties: false,
      },
      Error: {
        type: 'object',
        description: 'Every error reply. `error` is safe to show to a person.',
        required: ['error', 'code', 'requestId'],
        properties: {
          error: { type: 'string', description: 'What went wrong, in words.' },
          code: { type: 'string', enum: [...ERROR_CODES], description: 'What went wrong, for programs.' },
          requestId: { type: 'string', format: 'uuid', description: 'Equal to the X-Request-Id header.' },
          fields: {
            type: 'array',
            description: 'With validation_failed: each field that is wrong.',
            items: {
              type: 'object',
              required: ['path', 'message'],
              properties: {
                path: { type: 'string', description: 'Where, e.g. `body.inputs.3.email` or `querystring.limit`.' },
                message: { type: 'string' },
                line: { type: 'integer', description: 'In a template expression: the line (1-based).' },
                column: { type: 'integer', description: 'In a template expression: the column (1-based).' },
              },
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    },
  };
}

const TAGS = [
  {
    name: 'Lookups',
    description: `Find people by e-mail, hashed e-mail, phone, IP, advertising id, vehicle, Tessera id, name and address, or any of them: GET for one input, POST for up to ${LOOKUP_LIMITS.maxInputs.toLocaleString('en-US')}, PUT for a CSV of any size. Each identity has a match score and is shaped by a template (default Full). Metered per call against the organization's contract; rate-limited per key and per organization (${RATE_WINDOW_MS / 1000} s sliding window).`,
  },
  {
    name: 'API keys',
    description:
      "Make, change, rotate and revoke the keys that call the lookups. Console-session calls: the key's secret is shown once.",
  },
  {
    name: 'Templates',
    description:
      'JSONata expressions that shape each identity a lookup returns: drafts, published versions and previews. Console-session calls.',
  },
  { name: 'Reference', description: 'This document.' },
];

/** The document; `publicUrl` is where this deployment is (PUBLIC_URL), `examples` the captured real calls. */
export function openApiDocument(options: { publicUrl?: string; examples?: Examples } = {}): Json {
  const examples = options.examples ?? (capturedExamples as Examples);
  const server = (options.publicUrl ?? PUBLISHED_SERVER).replace(/\/+$/, '');
  const paths: Json = {};
  for (const endpoint of LOOKUP_ENDPOINT_NAMES) paths[`/v2/identities/${endpoint}`] = lookupPaths(endpoint, examples);
  Object.assign(paths, keyPaths(examples), templatePaths(examples));
  const openApi = examples.operations.openApi;
  paths['/v2/openapi.json'] = {
    get: {
      operationId: 'openApi',
      summary: 'Get this document',
      description: 'The OpenAPI 3.1 document of the API, to anyone. Published as docs/openapi.json.',
      tags: ['Reference'],
      security: [],
      responses: {
        '200': {
          description: 'This document.',
          headers: {
            'X-Request-Id': header('XRequestId'),
            'Cache-Control': {
              description: 'Kept for five minutes: `public, max-age=300`.',
              required: true,
              schema: { type: 'string', const: 'public, max-age=300' },
            },
          },
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['openapi', 'info', 'paths'],
                properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
                additionalProperties: true,
              },
              ...(openApi?.json !== undefined
                ? {
                    examples: {
                      excerpt: { summary: 'The start of a real reply, its paths cut to one', value: openApi.json },
                    },
                  }
                : {}),
            },
          },
        },
        ...errors({ '400': 'The request URL is malformed.', '500': null, '503': null }),
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera identity API',
      version: API_VERSION,
      description:
        'Identity lookups by e-mail, phone, IP, device, hashes, PII, vehicle, id or any of them, with match scores, shaped by templates, as JSON or CSV; and the API keys and templates they use. Every /v2/identities path also answers at /v1/identities, so clients of the original API switch by changing only the base URL. Every reply carries X-Request-Id; every error is `{error, code, requestId}`.',
      contact: { name: 'Tessera support', email: 'support@tessera.test' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Tessera' },
    },
    servers: options.publicUrl
      ? [{ url: server, description: 'This deployment (its PUBLIC_URL).' }]
      : [
          {
            url: '{publicUrl}',
            description: 'A deployment: its own /v2/openapi.json names its PUBLIC_URL here.',
            variables: {
              publicUrl: { default: server, description: "The deployment's PUBLIC_URL (a local server by default)." },
            },
          },
        ],
    security: LOOKUP_SECURITY,
    tags: TAGS,
    paths,
    components: components(examples),
  };
}
