/**
 * The OpenAPI document's shared parts: headers, error responses, security schemes, and the JSON body and reply of
 * console operations.
 */
import { SESSION_COOKIE } from '@tessera/common/entities';
import { IDEMPOTENCY, REQUEST_ID } from '@tessera/common/lookups';
import { PURPOSE_IDS } from '@tessera/common/purposes';
import type { z } from 'zod';
import { COMPRESSION_THRESHOLD, REQUEST_ENCODINGS } from '../../http/compression';
import { type CapturedExample, type Examples, header, type Json, ref, response, schemaOf } from './base';

/** A request's id: the X-Request-Id it was sent with (decision 0046), else a UUID the server made. */
export const REQUEST_ID_SCHEMA: Json = {
  type: 'string',
  minLength: 1,
  maxLength: REQUEST_ID.maxLength,
  pattern: REQUEST_ID.pattern.source.replace(`{1,${REQUEST_ID.maxLength}}`, '+'),
  description:
    "Equal to the X-Request-Id header: the one the request carried, else a UUID the server made; in a replayed reply (Idempotent-Replayed), the first request's.",
};

export const HEADERS: Record<string, Json> = {
  XRequestId: {
    description:
      "The request's id: the X-Request-Id the request carried, else a UUID the server made; a replayed reply (Idempotent-Replayed) keeps the id of the request that ran and was charged, as its body does. Also in every error body as `requestId`: quote it when asking about a call.",
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: REQUEST_ID.maxLength },
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
  XCallCost: {
    description:
      "What this call cost, in USD with six decimals (`0.011000`), as its usage row records it; `0.000000` with a test key. On lookup replies sent whole, and on a lookup's 422 when its template failed (the call was metered); a streamed CSV upload's cost is in GET /v2/usage/calls. Absent on a replay (Idempotent-Replayed), which was not charged.",
    schema: { type: 'string', pattern: '^\\d+\\.\\d{6}$', examples: ['0.011000'] },
  },
  XMonthlyAllowanceRemaining: {
    description:
      "What is left of the organization's monthly limit after this call, in USD with six decimals, as the answering server process last read the organization's spend (plus what it charged since): calls answered meanwhile by other processes are not in it, so under load it may be slightly high. Absent when the contract has no monthly limit, and with a test key.",
    schema: { type: 'string', pattern: '^\\d+\\.\\d{6}$', examples: ['4.989000'] },
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

export const BASE_HEADERS = {
  'X-Request-Id': header('XRequestId'),
  'Cache-Control': header('CacheControl'),
  'Content-Encoding': header('ContentEncoding'),
};
/** What a lookup answered whole cost and what is left of the month's allowance (issue 31). */
export const CHARGE_HEADERS = {
  'X-Call-Cost': header('XCallCost'),
  'X-Monthly-Allowance-Remaining': header('XMonthlyAllowanceRemaining'),
};
export const RATE_HEADERS = {
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
/** The entity tag of a key, a template or their lists (issue 31, common/etag.ts). */
export const ETAG_HEADER = {
  description:
    "The entity tag. An item's starts with its version (its updatedAt in milliseconds, base 36; every change moves it), and a key's adds after a dot a digest of its usage figures, which change with calls rather than edits; a list's is a digest of the whole reply. Send it as If-None-Match to be told 304 while nothing changed, and an item's as If-Match on an edit.",
  required: true,
  schema: { type: 'string', pattern: '^"[^"]*"$', examples: ['"mihx3k2o.3qTnC1b0ZkQ"'] },
};

export const ERROR_STATUSES: Record<string, ErrorStatus> = {
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
      'Not allowed: the key may not be used from this address, its user is no longer active or moved organization; a console call without X-Requested-With or from another site; a role that may not do this; or, under a contract that lists permissible purposes, a lookup naming none or one the contract lacks (the text names the allowed ones).',
  },
  '404': { name: 'NotFound', description: 'The item does not exist or is out of your reach.' },
  '409': { name: 'Conflict', description: 'The request conflicts with the current state (see the operation).' },
  '410': { name: 'Gone', description: 'It existed and was deleted as its retention said (see the operation).' },
  '412': {
    name: 'PreconditionFailed',
    description:
      'Precondition Failed: the item changed after the version If-Match names was loaded, and nothing was changed (`code` precondition_failed). ETag is its current version: reload it, then make the change again.',
    headers: { ETag: { ...ETAG_HEADER, description: "The item's current version." } },
  },
  '413': { name: 'PayloadTooLarge', description: 'The request body is over 10 MB.' },
  '415': {
    name: 'UnsupportedMediaType',
    description: 'The request body has a content type this operation does not take.',
  },
  '422': {
    name: 'Unprocessable',
    description:
      'The template failed on a record (its message names the template and the failure), or an Idempotency-Key was reused for a different request.',
    headers: CHARGE_HEADERS,
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

export function errorResponses(examples: Examples): Json {
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
export function errors(statuses: Record<string, string | null>): Json {
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

export const LOOKUP_SECURITY = [{ apiKey: [] }, { signedKey: [] }, { legacyKey: [] }, { session: [] }];
export const CONSOLE_SECURITY = [{ session: [] }];

export const SECURITY_SCHEMES = {
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
      "A console session (sign in at /auth/login). Calls that change something also need the header `X-Requested-With` (any value; the console sends `XMLHttpRequest`) and, when the browser sends an Origin, this server's origin. A request with an Authorization header is never taken as a session.",
  },
};

/** Every operation with a body takes it compressed. */
export const CONTENT_ENCODING = {
  name: 'Content-Encoding',
  in: 'header',
  required: false,
  description:
    'The body may be sent compressed with gzip, deflate or br; it is decompressed as it is read and its size limit counts the decompressed bytes (413 past it). Any other encoding answers 415; a body that does not decompress, 400.',
  schema: { type: 'string', enum: [...REQUEST_ENCODINGS] },
  example: 'gzip',
};

/** The server takes any value but none (http/origin.ts): what matters is that a cross-site form cannot send it. */
export const requestedWith = (required: boolean) => ({
  name: 'X-Requested-With',
  in: 'header',
  required,
  schema: { type: 'string', minLength: 1 },
  example: 'XMLHttpRequest',
  description: required
    ? 'Console calls that change something carry it, with any value (the console sends `XMLHttpRequest`): a cross-site form cannot; without it, or empty, 403.'
    : 'Needed, with any value (the console sends `XMLHttpRequest`), only when calling with a console session rather than an API key; without it such a call answers 403.',
});

export const DELETED = (id: Json) => ({
  type: 'object',
  description: 'The item marked deleted: a client removes it from its list.',
  required: ['id', 'deletedAt'],
  properties: { id, deletedAt: { type: 'string', format: 'date-time' } },
  additionalProperties: false,
});

export function jsonReply(description: string, schema: Json, example: CapturedExample | undefined): Json {
  return {
    description,
    headers: BASE_HEADERS,
    content: { 'application/json': { schema, ...(example?.json !== undefined ? { example: example.json } : {}) } },
  };
}

export function jsonBody(schema: z.ZodType, example: CapturedExample | undefined, required = true): Json {
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

export const CONSOLE_ERRORS = { '400': null, '401': null, '403': null, '451': null, '500': null, '503': null };
export const BODY_ERRORS = {
  '413': null,
  '415': 'The body is not application/json, or its Content-Encoding is not gzip, deflate or br.',
};

/** The Idempotency-Key header of a call that makes something: a retry of it is answered again, not run again. */
export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY.maxKeyLength, pattern: '^[\\x21-\\x7E]+$' },
  description: `Makes a retry safe: a repeat of the same request (method, path, query and body) within ${IDEMPOTENCY.keepHours} hours gets the first reply again with Idempotent-Replayed: true, neither run nor charged. The same key with another request answers 422; while the first still runs, 409. Keys are per API key (per user for console sessions).`,
  example: 'order-2041-retry-1',
};

const PURPOSE_SCHEMA = { type: 'string', enum: [...PURPOSE_IDS] };

/**
 * The permissible purpose of a lookup (issue 34): the parameter, else the header, else the key's default. Under a
 * contract that lists purposes a lookup naming none, or another, answers 403; an unknown id 400.
 */
export const PURPOSE_PARAMETERS: Json[] = [
  {
    name: 'purpose',
    in: 'query',
    required: false,
    schema: PURPOSE_SCHEMA,
    description:
      "Why the lookup is made (GLBA, DPPA or FCRA permissible purpose), kept on the lookup audit trail. Before X-Permissible-Purpose and the key's defaultPurpose. Under a contract that lists purposes, a lookup naming none, or one the contract lacks, answers 403 naming the allowed ones; an unknown id answers 400.",
    example: 'fcra-employment',
  },
  {
    name: 'X-Permissible-Purpose',
    in: 'header',
    required: false,
    schema: PURPOSE_SCHEMA,
    description: "The permissible purpose, as `purpose` gives it (which wins); else the key's defaultPurpose.",
    example: 'fcra-employment',
  },
];

/** The `limit` and `before` query parameters of a list paged by id, newest first (jobs, uploads). */
export function pageParameters(noun: string, limit: { default: number; max: number }): Json[] {
  return [
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: `${noun} a page, 1 to ${limit.max}.`,
      schema: { type: 'integer', minimum: 1, maximum: limit.max, default: limit.default },
    },
    {
      name: 'before',
      in: 'query',
      required: false,
      description: 'The `next` of the page before.',
      schema: { type: 'string' },
    },
  ];
}
