/** The OpenAPI paths of the lookup endpoints: inputs, options, rules, and replies as JSON or CSV. */
import {
  INPUT_DESCRIPTIONS,
  type InputName,
  LOOKUP_ENDPOINTS,
  LOOKUP_LIMITS,
  type LookupEndpoint,
  PII_MESSAGES,
  plainKeyOf,
} from '@tessera/common/lookups';
import { STREAM_BATCH } from '../identities/csv-stream';
import { OPTION_NAMES, optionsSchema } from '../identities/options';
import { type CapturedExample, type Examples, header, inputExtras, type Json, ref, schemaOf } from './base';
import {
  BASE_HEADERS,
  CHARGE_HEADERS,
  CONTENT_ENCODING,
  errors,
  IDEMPOTENCY_KEY,
  LOOKUP_SECURITY,
  PURPOSE_PARAMETERS,
  RATE_HEADERS,
  REQUEST_ID_SCHEMA,
  requestedWith,
} from './http-parts';
import { batchResult, lookupResult, TEMPLATED_IDENTITIES } from './identity-schemas';

export type OptionName = (typeof OPTION_NAMES)[number];
/** What each option of optionsSchema does and its default: a new option without words here fails typecheck. */
export const OPTION_DOCS: Record<OptionName, { description: string; default?: unknown }> = {
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

export function optionSchemas(except: OptionName[] = []): Record<string, Json> {
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
export function typed(schema: Json, text: string): unknown {
  const types = [schema.type, ...(schema.anyOf ?? []).map((s: Json) => s.type)].flat();
  if (types.includes('integer') || types.includes('number')) return Number(text);
  if (types.includes('boolean')) return text === 'true';
  return text;
}

export function optionParameters(except: OptionName[] = [], example: Record<string, string> = {}): Json[] {
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
export const FINDS_BY: Record<LookupEndpoint, string> = {
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

export const PII_RULE = `${PII_MESSAGES.names} ${PII_MESSAGES.place} ${PII_MESSAGES.houseNumber} Names are compared by sound, nickname and spelling; the address, city, state and ZIP raise or lower the score. Candidates are scored by the fitted model (up to ${LOOKUP_LIMITS.piiCandidates} per input) and returned from score ${LOOKUP_LIMITS.piiMinScore} unless minScore says otherwise.`;

export function endpointRules(endpoint: LookupEndpoint): string {
  const inputs = LOOKUP_ENDPOINTS[endpoint] as readonly InputName[];
  if (endpoint === 'byPii') return PII_RULE;
  if (endpoint === 'byAny')
    return `Give any of ${inputs.join(', ')}: every exact key given is searched, and a name with a place is searched as a PII lookup too (${PII_MESSAGES.names} ${PII_MESSAGES.place}). At least one input is needed.`;
  return `${INPUT_DESCRIPTIONS[inputs[0]!]} Exact match on the normalized value: a well-formed input either matches or finds nothing.`;
}

export const inputRequired = (endpoint: LookupEndpoint): string[] =>
  endpoint === 'byPii' ? ['firstName', 'lastName'] : plainKeyOf(endpoint) ? [plainKeyOf(endpoint)!] : [];

export function inputObject(endpoint: LookupEndpoint): Json {
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

export const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** The query parameters of an example request, e.g. { email: 'a@b.example', limit: '3' }. */
export const queryOf = (example: CapturedExample | undefined) => example?.request.query ?? {};

/**
 * Where a lookup's 200 declares its reply with a template other than Full (decision 0058): beside the default reply's
 * schema, not in a union with it, which would leave every field of the Full record untyped in a generated client.
 */
export const TEMPLATED_REPLY = 'x-templated';

/** The 200 of a GET or POST lookup: `name` (LookupResult, BatchResult) as JSON, Templated{name} beside it, or CSV. */
export function jsonAndCsv(name: 'LookupResult' | 'BatchResult', example: CapturedExample | undefined): Json {
  return {
    'application/json': {
      schema: ref(name),
      [TEMPLATED_REPLY]: {
        description: `With \`template\` naming a template other than Full (1), each identity is as that template shapes it (Identity): this schema in place of ${name}.`,
        schema: (name === 'LookupResult' ? lookupResult : batchResult)(TEMPLATED_IDENTITIES),
      },
      ...(example?.json !== undefined ? { example: example.json } : {}),
    },
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

export function lookupPaths(endpoint: LookupEndpoint, examples: Examples): Json {
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
  const requestId = {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    schema: REQUEST_ID_SCHEMA,
    description:
      "The request's identity, as a client or a balancer (HAProxy's unique-id) sets it; else the server makes one. It is the reply's requestId and the usage row's key: a retry with the same id and the same request is answered again and billed once; the same id with another request answers 409 (a PUT, already streamed, is billed under an id of its own). A malformed one answers 400.",
    example: 'order-2041-attempt',
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
        ...PURPOSE_PARAMETERS,
        requestId,
      ],
      responses: {
        '200': {
          description: 'The identities found, best score first; an empty list when nothing matches.',
          headers: { ...okHeaders, ...CHARGE_HEADERS, 'Content-Disposition': header('ContentDisposition') },
          content: jsonAndCsv('LookupResult', get),
        },
        ...errors({ ...common, '409': 'The X-Request-Id was used already for another request.' }),
      },
    },
    post: {
      operationId: `post${name}`,
      summary: `Look up to ${LOOKUP_LIMITS.maxInputs.toLocaleString('en-US')} people by ${by}`,
      description: `${endpointRules(endpoint)} Up to ${LOOKUP_LIMITS.maxInputs.toLocaleString('en-US')} inputs in one call${plain ? `, each the ${plain} as a string or an object of named inputs` : ', each an object of named inputs'}; every input's errors are reported at once (400, up to 20). Results come in the order of the inputs, each echoing its input. Options go in the body beside \`inputs\`; any other name is refused. Send an Idempotency-Key to retry safely. For more inputs, PUT a CSV.`,
      tags,
      security: LOOKUP_SECURITY,
      parameters: [IDEMPOTENCY_KEY, requestId, requestedWith(false), CONTENT_ENCODING, ...PURPOSE_PARAMETERS],
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
          headers: { ...batchHeaders, ...CHARGE_HEADERS },
          content: jsonAndCsv('BatchResult', post),
        },
        ...errors({
          ...common,
          '409':
            'The first request with this Idempotency-Key is still running, or the X-Request-Id was used already for another request.',
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
      parameters: [
        IDEMPOTENCY_KEY,
        requestId,
        requestedWith(false),
        CONTENT_ENCODING,
        ...optionParameters(['format'], queryOf(put)),
        ...PURPOSE_PARAMETERS,
      ],
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
          '415':
            'The Content-Type is one the server does not read (a JSON body answers 400, naming text/csv), or the Content-Encoding is not gzip, deflate or br.',
        }),
      },
    },
  };
}
