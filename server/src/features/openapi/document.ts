/**
 * /v2/openapi.json (issue 5, issue 14, decision 0026): OpenAPI 3.1 generated from the definitions the routes
 * validate with: the lookup endpoints and their inputs and rules (common/lookups.ts), the lookup options schema, the
 * lookup record schema, any zod schema identities/inputs.ts exports for a batch input's extra fields, the key and
 * template bodies' zod schemas, and the error body. Replies are typed here and checked against real replies by
 * conformance.test.ts, which also captures the examples (examples.json). Published as docs/openapi.json;
 * compat.ts keeps later versions compatible.
 */

import { ERROR_CODES } from '@tessera/common/errors';
import { LOOKUP_ENDPOINT_NAMES, LOOKUP_LIMITS, RATE_WINDOW_MS } from '@tessera/common/lookups';
import { API_VERSION, type Examples, header, type Json, PUBLISHED_SERVER, ref } from './base';
import capturedExamples from './examples.json';
import {
  DELETED,
  errorResponses,
  errors,
  HEADERS,
  LOOKUP_SECURITY,
  REQUEST_ID_SCHEMA,
  SECURITY_SCHEMES,
} from './http-parts';
import { batchResult, identitySchemas, lookupResult } from './identity-schemas';
import { JOBS_TAG, jobPaths, jobSchemas } from './job-paths';
import { API_KEY, KEY_ID, keyPaths } from './key-paths';
import { lookupPaths } from './lookup-paths';
import { SUBSCRIPTIONS_TAG, subscriptionPaths, subscriptionSchemas } from './subscription-paths';
import { TEMPLATE, TEMPLATE_ID, TEMPLATE_VERSION, templatePaths } from './template-paths';
import { uploadPaths, uploadSchemas } from './upload-paths';
import { USAGE_TAG, usagePaths, usageSchemas } from './usage-paths';
import { WEBHOOKS_TAG, webhookEvents, webhookPaths, webhookSchemas } from './webhook-paths';

export { API_VERSION, type CapturedExample, type Examples, inputExtras, PUBLISHED_SERVER, schemaOf } from './base';

// ---------------------------------------------------------------------------------------------------------------
// Components and the document

function components(examples: Examples): Json {
  return {
    securitySchemes: SECURITY_SCHEMES,
    headers: HEADERS,
    responses: errorResponses(examples),
    schemas: {
      ...identitySchemas(),
      LookupResult: lookupResult(ref('Identities')),
      BatchResult: batchResult(ref('Identities')),
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
      ...usageSchemas(),
      ...webhookSchemas(),
      ...jobSchemas(),
      ...uploadSchemas(),
      ...subscriptionSchemas(),
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
          requestId: REQUEST_ID_SCHEMA,
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
  USAGE_TAG,
  WEBHOOKS_TAG,
  SUBSCRIPTIONS_TAG,
  JOBS_TAG,
  { name: 'Reference', description: 'This document.' },
];

/** The document; `publicUrl` is where this deployment is (PUBLIC_URL), `examples` the captured real calls. */
export function openApiDocument(options: { publicUrl?: string; examples?: Examples } = {}): Json {
  const examples = options.examples ?? (capturedExamples as Examples);
  const server = (options.publicUrl ?? PUBLISHED_SERVER).replace(/\/+$/, '');
  const paths: Json = {};
  for (const endpoint of LOOKUP_ENDPOINT_NAMES) paths[`/v2/identities/${endpoint}`] = lookupPaths(endpoint, examples);
  Object.assign(
    paths,
    keyPaths(examples),
    templatePaths(examples),
    usagePaths(examples),
    webhookPaths(examples),
    subscriptionPaths(examples),
    jobPaths(examples),
    uploadPaths(examples),
  );
  const openApi = examples.operations.openApi;
  const documentHeaders = {
    'X-Request-Id': header('XRequestId'),
    'Cache-Control': {
      description: 'Kept for five minutes: `public, max-age=300`.',
      required: true,
      schema: { type: 'string', const: 'public, max-age=300' },
    },
    ETag: {
      description:
        'The version of this document (weak: the same whether compressed or not). Send it back as If-None-Match to get 304 while it is unchanged.',
      required: true,
      schema: { type: 'string', pattern: '^W/"[A-Za-z0-9_-]+"$' },
    },
  };
  paths['/v2/openapi.json'] = {
    get: {
      operationId: 'openApi',
      summary: 'Get this document',
      description: 'The OpenAPI 3.1 document of the API, to anyone. Published as docs/openapi.json.',
      tags: ['Reference'],
      security: [],
      parameters: [
        {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description:
            'The ETag of a copy already held (or several, comma-separated, or `*`): answered 304 while it is current.',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': {
          description: 'This document.',
          headers: { ...documentHeaders, 'Content-Encoding': header('ContentEncoding') },
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
        '304': {
          description: 'Unchanged since the copy whose ETag the request named in If-None-Match: use that copy.',
          headers: documentHeaders,
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
    webhooks: webhookEvents(),
    components: components(examples),
  };
}
