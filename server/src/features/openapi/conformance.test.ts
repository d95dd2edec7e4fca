/**
 * The OpenAPI document against the real app: every operation it lists is called (its success and its main errors)
 * and every reply's status, declared headers and body are validated with ajv (JSON Schema 2020-12) against the
 * document. A status the operation does not declare, a body its schema refuses, a missing required header or a
 * header of the API's own the response does not declare fails. With UPDATE_OPENAPI=1 the successful calls are kept
 * as the document's examples (examples.json) and docs/openapi.json is rewritten (refusing a breaking change that
 * docs/api-changes.md does not note).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { LOOKUP_ENDPOINT_NAMES, LOOKUP_ENDPOINTS, type LookupEndpoint, plainKeyOf } from '@tessera/common/lookups';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import type { Database } from '../../db/client';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  makeCustomer,
  makeOrganization,
  makeUser,
  signIn,
  TEST_PUBLIC_URL,
  type TestApp,
} from '../../test/harness';
import { load, person } from '../identities/test-people';
import { compatibilityProblems } from './compat';
import { type CapturedExample, type Examples, openApiDocument } from './document';
import { describeJobs } from './job-conformance';
import { TEMPLATED_REPLY } from './lookup-paths';
import { describeSubscriptions } from './subscription-conformance';
import { describeWebhooks } from './webhook-conformance';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are JSON of any shape
type Json = Record<string, any>;

const EXAMPLES = path.join(REPO_ROOT, 'server/src/features/openapi/examples.json');
const PUBLISHED = path.join(REPO_ROOT, 'docs/openapi.json');
const NOTES = path.join(REPO_ROOT, 'docs/api-changes.md');
const UPDATE = Boolean(process.env.UPDATE_OPENAPI);

const doc = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');

/** A schema of the document made to resolve its `#/components/...` references against the document. */
function rebased(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
}
const resolve = (value: Json): Json =>
  value?.$ref
    ? resolve(
        (value.$ref as string)
          .split('/')
          .slice(1)
          .reduce((at: Json, part) => at[part], doc),
      )
    : value;

const validateFull = ajv.compile({ $ref: 'doc#/components/schemas/FullIdentity' });

interface Operation {
  method: string;
  path: string;
  op: Json;
}
const OPERATIONS = new Map<string, Operation>();
for (const [p, item] of Object.entries<Json>(doc.paths)) {
  for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
    if (item[method]) OPERATIONS.set(item[method].operationId, { method, path: p, op: item[method] });
  }
}

/** The API's own headers: each one a reply carries must be declared by its response. */
const OWN_HEADERS = [
  'x-request-id',
  'cache-control',
  'idempotent-replayed',
  'ratelimit-policy',
  'ratelimit',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'content-disposition',
  'www-authenticate',
  'content-encoding',
  'etag',
  'allow',
  'x-call-cost',
  'x-monthly-allowance-remaining',
];

/** The reply's body as sent before any Content-Encoding. */
function decoded(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  const raw = res.rawPayload;
  if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  if (encoding === 'deflate') return inflateSync(raw).toString('utf8');
  return res.body;
}

const seen = new Map<string, Set<number>>();
const captured: Examples = { operations: {}, errors: {} };

/** Validates a reply against the operation's declared response; returns the problems (none when it conforms). */
function problems(operationId: string, res: LightMyRequestResponse, templated = false): string[] {
  const operation = OPERATIONS.get(operationId);
  if (!operation) return [`no operation ${operationId}`];
  const declared = operation.op.responses[String(res.statusCode)];
  if (!declared) return [`status ${res.statusCode} not declared: ${res.body.slice(0, 300)}`];
  const response = resolve(declared);
  const out: string[] = [];
  const headers = Object.fromEntries(
    Object.entries<Json>(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), resolve(h)]),
  );
  for (const [name, h] of Object.entries<Json>(headers)) {
    const raw = res.headers[name];
    if (raw === undefined) {
      if (h.required) out.push(`header ${name} missing`);
      continue;
    }
    const value = h.schema?.type === 'integer' ? Number(raw) : String(raw);
    const validate = ajv.compile(rebased(h.schema ?? {}));
    if (!validate(value)) out.push(`header ${name}: ${raw}: ${ajv.errorsText(validate.errors)}`);
  }
  for (const name of OWN_HEADERS) {
    if (res.headers[name] !== undefined && !headers[name]) out.push(`header ${name} sent but not declared`);
  }
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  if (res.body.length > 0 || response.content) {
    const media = response.content?.[type];
    if (!media) out.push(`content type ${type} not declared`);
    else if (type === 'application/json') {
      // A lookup with another template than Full is declared beside the default reply (TEMPLATED_REPLY).
      const schema = templated && media[TEMPLATED_REPLY] ? media[TEMPLATED_REPLY].schema : media.schema;
      const validate = ajv.compile(rebased(schema ?? {}));
      if (!validate(JSON.parse(decoded(res))))
        out.push(`body: ${ajv.errorsText(validate.errors, { separator: '\n' })}`);
    } else if (media.schema?.type === 'string' && typeof res.body !== 'string') out.push('body not text');
  }
  return out;
}

/** Sends a request for an operation, checks its reply against the document, and keeps a success as its example. */
async function call(
  operationId: string,
  options: {
    params?: Record<string, string | number>;
    query?: Record<string, string>;
    body?: unknown;
    csv?: string;
    headers?: Record<string, string>;
    payload?: string | Buffer;
    /** Another app than the shared one. */
    app?: TestApp;
  },
  expected?: number,
): Promise<LightMyRequestResponse> {
  const operation = OPERATIONS.get(operationId);
  expect(operation, operationId).toBeDefined();
  const url = operation!.path.replace(/\{(\w+)\}/g, (_, name: string) => String(options.params?.[name]));
  const headers: Record<string, string> = { ...options.headers };
  const inject: InjectOptions = {
    method: operation!.method.toUpperCase() as InjectOptions['method'],
    url,
    query: options.query,
    headers,
  };
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    inject.payload = JSON.stringify(options.body);
  } else if (options.csv !== undefined) {
    headers['content-type'] ??= 'text/csv';
    inject.payload = options.csv;
  } else if (options.payload !== undefined) inject.payload = options.payload;
  const res = await (options.app ?? t).app.inject(inject);
  if (expected !== undefined) expect(res.statusCode, `${operationId}: ${res.body.slice(0, 300)}`).toBe(expected);
  // With the default template every identity is the published record: typed, not merely free-form.
  const template = options.query?.template ?? (options.body as Json | undefined)?.template;
  const templated = template !== undefined && String(template) !== '1';
  expect(problems(operationId, res, templated), `${operationId} ${res.statusCode}`).toEqual([]);
  if (res.statusCode === 200 && operation!.path.startsWith('/v2/identities/') && !template && res.json !== undefined) {
    const type = String(res.headers['content-type'] ?? '');
    if (type.startsWith('application/json')) {
      const body = JSON.parse(decoded(res));
      const identities = body.identities ?? body.results.flatMap((r: Json) => r.identities);
      expect(identities.length, operationId).toBeGreaterThan(0);
      for (const identity of identities) {
        expect(validateFull(identity), `${operationId}: ${ajv.errorsText(validateFull.errors)}`).toBe(true);
      }
    }
  }
  if (!seen.has(operationId)) seen.set(operationId, new Set());
  seen.get(operationId)!.add(res.statusCode);
  const csvReply = String(res.headers['content-type'] ?? '').startsWith('text/csv');
  if (res.statusCode < 300) {
    captured.operations[operationId] ??= {
      request: {
        ...(options.query || options.params
          ? { query: { ...options.query, ...(options.params ? stringify(options.params) : {}) } }
          : {}),
        ...(options.body !== undefined ? { body: options.body } : {}),
        ...(options.csv !== undefined ? { csv: options.csv } : {}),
      },
      status: res.statusCode,
    };
    const example: CapturedExample = captured.operations[operationId]!;
    if (csvReply) {
      if (operation!.method === 'put') example.csv ??= res.body;
      else example.csvReply ??= res.body;
    } else if (operationId === 'openApi') {
      const full = JSON.parse(decoded(res));
      example.json ??= { ...full, paths: { '/v2/openapi.json': { get: { operationId: 'openApi' } } } };
      delete (example.json as Json).components;
    } else example.json ??= res.json();
  } else if (String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    captured.errors[String(res.statusCode)] ??= res.json();
  }
  return res;
}
const stringify = (params: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));

let t: TestApp;
let cookie: string;
let bearer: Record<string, string>;
let limited: Record<string, string>;
let fenced: Record<string, string>;
let unpaid: string;
let unsigned: string;
let userId: number;
let deletedTemplate: number;
let failingTemplate: number;
const people = [person(), person(), person()];

/** An input each endpoint finds people[i] by, as named inputs. */
function named(endpoint: LookupEndpoint, i: number): Record<string, string> {
  const p = people[i]!;
  const email = p.emails[0]!.address;
  switch (endpoint) {
    case 'byAny':
      return { email, firstName: p.firstName, lastName: p.lastName };
    case 'byDevice':
      return { device: p.devices[0]!.deviceId };
    case 'byEmail':
      return { email };
    case 'byId':
      return { id: String(p.id) };
    case 'byIp':
      return { ip: p.ips[0]!.ip };
    case 'byMd5':
      return { md5: md5hex(email) };
    case 'byPhone':
      return { phone: p.phones[0]!.number };
    case 'byPii':
      return { firstName: p.firstName, lastName: p.lastName, address: p.address, zip: p.zip };
    case 'bySha256':
      return { sha256: sha256hex(email) };
    case 'byVehicle':
      return { vin: p.vehicles[0]!.vin };
  }
}
const md5hex = (s: string) => createHash('md5').update(s).digest('hex');
const sha256hex = (s: string) => createHash('sha256').update(s).digest('hex');
const csvOf = (rows: Record<string, string>[]) => {
  const columns = Object.keys(rows[0]!);
  return `${[columns.join(','), ...rows.map((r) => columns.map((c) => r[c]).join(','))].join('\n')}\n`;
};

beforeAll(async () => {
  t = await buildTestApp();
  await load(t.database, ...people);
  const customer = await makeCustomer(t.database);
  userId = customer.id;
  cookie = await signIn(t.app, customer.email);
  const org = await makeOrganization(t.database);
  unpaid = await signIn(t.app, (await makeUser(t.database, 'user', org.id)).email);
  unsigned = await signIn(t.app, (await makeUser(t.database, 'user', null, { acceptTerms: false })).email);
  const key = async (body: Json) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/keys',
      headers: { ...CONSOLE_HEADERS, cookie },
      payload: body,
    });
    const item = Object.values<Json>(res.json().keys)[0]!;
    return { authorization: `Bearer ${item.id}${item.secret}` };
  };
  bearer = await key({ name: 'Conformance', rateLimit: 10_000 });
  limited = await key({ name: 'One a minute', rateLimit: 1 });
  fenced = await key({ name: 'Elsewhere only', ipAllowlist: ['192.0.2.0/24'] });
  const template = async (expression: string, publish: boolean) => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/v2/templates',
      headers: { ...CONSOLE_HEADERS, cookie },
      payload: { name: `T ${Math.random()}`, expression },
    });
    const id = Number(Object.keys(made.json().templates)[0]);
    if (publish) {
      await t.app.inject({
        method: 'POST',
        url: `/v2/templates/${id}/publish`,
        headers: { ...CONSOLE_HEADERS, cookie },
      });
    }
    return id;
  };
  deletedTemplate = await template('{"name": firstName}', true);
  await t.app.inject({
    method: 'DELETE',
    url: `/v2/templates/${deletedTemplate}`,
    headers: { ...CONSOLE_HEADERS, cookie },
  });
  failingTemplate = await template('$error("This template refuses every record.")', true);
  // The limited key's one call a minute is spent, so every call with it is refused.
  await t.app.inject({ method: 'GET', url: '/v2/identities/byId', query: { id: '1' }, headers: limited });
});
afterAll(() => t?.app.close());

describe.each(LOOKUP_ENDPOINT_NAMES)('%s, as documented', (endpoint) => {
  const name = endpoint[0]!.toUpperCase() + endpoint.slice(1);
  const plain = plainKeyOf(endpoint);
  const get = `get${name}`;
  const post = `post${name}`;
  const put = `put${name}`;

  it('GET answers JSON and CSV as documented, and its errors', async () => {
    const json = await call(get, { query: { ...named(endpoint, 0), limit: '3' }, headers: bearer }, 200);
    expect(json.json().identities.length).toBeGreaterThan(0);
    await call(get, { query: named(endpoint, 0), headers: { ...bearer, accept: 'text/csv' } }, 200);
    const shaped = await call(get, { query: { ...named(endpoint, 0), template: '3' }, headers: bearer }, 200);
    expect(shaped.json().identities[0].lastSeen).toBeUndefined();
    await call(get, { query: { ...named(endpoint, 0), limit: '0' }, headers: bearer }, 400);
    await call(get, { query: named(endpoint, 0) }, 401);
    await call(get, { query: named(endpoint, 0), headers: { cookie: unpaid } }, 402);
    await call(get, { query: named(endpoint, 0), headers: fenced }, 403);
    await call(get, { query: { ...named(endpoint, 0), template: String(deletedTemplate) }, headers: bearer }, 404);
    await call(get, { query: { ...named(endpoint, 0), template: String(failingTemplate) }, headers: bearer }, 422);
    await call(get, { query: named(endpoint, 0), headers: limited }, 429);
    await call(get, { query: named(endpoint, 0), headers: { cookie: unsigned } }, 451);
  });

  it('POST answers JSON and CSV as documented, replays, and its errors', async () => {
    const inputs = [
      plain ? named(endpoint, 0)[plain]! : named(endpoint, 0),
      { ...named(endpoint, 1), metadata: { customerId: 'c-1042', row: 2 } },
    ];
    const res = await call(post, { body: { inputs, explain: true }, headers: bearer }, 200);
    expect(res.json().results).toHaveLength(2);
    await call(post, { body: { inputs, format: 'csv' }, headers: bearer }, 200);
    await call(post, { body: { inputs, template: 3 }, headers: bearer }, 200);
    const again = { 'idempotency-key': `conformance-${endpoint}-${Date.now()}`, ...bearer };
    await call(post, { body: { inputs }, headers: again }, 200);
    const replayed = await call(post, { body: { inputs }, headers: again }, 200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    await call(post, { body: { inputs: [...inputs, ...inputs] }, headers: again }, 422);
    await call(post, { body: { inputs: [] }, headers: bearer }, 400);
    await call(post, { body: { inputs }, headers: { authorization: `Bearer ${'A1'.repeat(24)}` } }, 401);
    await call(post, { body: { inputs }, headers: { ...CONSOLE_HEADERS, cookie: unpaid } }, 402);
    await call(post, { body: { inputs }, headers: fenced }, 403);
    await call(post, { body: { inputs, template: deletedTemplate }, headers: bearer }, 404);
    await call(post, { body: { inputs, template: failingTemplate }, headers: bearer }, 422);
    await call(post, { body: { inputs }, headers: limited }, 429);
    await call(post, { payload: 'inputs', headers: { ...bearer, 'content-type': 'application/xml' } }, 415);
    await call(post, { body: { inputs }, headers: { ...CONSOLE_HEADERS, cookie: unsigned } }, 451);
    const running = `conformance-running-${endpoint}`;
    await t.database.query(`insert into idempotency_keys (owner, key, state) values ($1, $2, 'running')`, [
      `user:${userId}`,
      running,
    ]);
    await call(post, { body: { inputs }, headers: { ...CONSOLE_HEADERS, cookie, 'idempotency-key': running } }, 409);
  });

  it('PUT streams CSV as documented, and its errors', async () => {
    const csv = csvOf([named(endpoint, 0), named(endpoint, 1)]);
    const res = await call(put, { csv, query: { limit: '2' }, headers: bearer }, 200);
    expect(res.body.split('\n').length).toBeGreaterThan(2);
    await call(put, { csv: 'nonsense\nx\n', headers: bearer }, 400);
    await call(put, { csv, headers: { authorization: 'Bearer not-a-key' } }, 401);
    await call(put, { csv, headers: { 'x-requested-with': 'XMLHttpRequest', cookie: unpaid } }, 402);
    await call(put, { csv, headers: fenced }, 403);
    await call(put, { csv, query: { template: String(deletedTemplate) }, headers: bearer }, 404);
    await call(put, { csv, query: { template: String(failingTemplate) }, headers: bearer }, 422);
    await call(put, { csv, headers: limited }, 429);
    await call(put, { payload: '<csv/>', headers: { ...bearer, 'content-type': 'application/xml' } }, 415);
    await call(put, { csv, headers: { 'x-requested-with': 'yes', cookie: unsigned } }, 451);
    const running = `conformance-running-put-${endpoint}`;
    await t.database.query(`insert into idempotency_keys (owner, key, state) values ($1, $2, 'running')`, [
      `user:${userId}`,
      running,
    ]);
    await call(
      put,
      { csv, headers: { 'x-requested-with': 'XMLHttpRequest', cookie, 'idempotency-key': running } },
      409,
    );
  });
});

describe('lookups when usage cannot be recorded', () => {
  let away: TestApp;
  beforeAll(async () => {
    // The same database, except that recording usage fails: the call is neither answered nor charged (503).
    const database = Object.create(t.database) as Database;
    database.query = (text, params, options) =>
      options?.budget === 'usage'
        ? Promise.reject(new Error('usage store away'))
        : t.database.query(text, params, options);
    away = await buildTestApp({ database });
  });
  afterAll(() => away?.app.close());

  // A PUT's reply has begun by then: it is cut short instead (its description says so).
  it.each(LOOKUP_ENDPOINT_NAMES)('%s answers 503 on GET and POST, as documented', async (endpoint) => {
    const name = endpoint[0]!.toUpperCase() + endpoint.slice(1);
    await call(`get${name}`, { app: away, query: named(endpoint, 0), headers: bearer }, 503);
    await call(`post${name}`, { app: away, body: { inputs: [named(endpoint, 0)] }, headers: bearer }, 503);
  });
});

describe('compression, as documented', () => {
  it('takes compressed bodies, refuses unknown encodings, and compresses replies', async () => {
    const email = people[0]!.emails[0]!.address;
    const zipped = { ...bearer, 'content-encoding': 'gzip' };
    await call(
      'postByEmail',
      {
        payload: gzipSync(JSON.stringify({ inputs: [email] })),
        headers: { ...zipped, 'content-type': 'application/json' },
      },
      200,
    );
    await call(
      'putByEmail',
      { payload: gzipSync(`email\n${email}\n`), headers: { ...zipped, 'content-type': 'text/csv' } },
      200,
    );
    const odd = { ...bearer, 'content-encoding': 'compress' };
    await call('postByEmail', { payload: 'x', headers: { ...odd, 'content-type': 'application/json' } }, 415);
    await call('putByEmail', { payload: 'x', headers: { ...odd, 'content-type': 'text/csv' } }, 415);
    await call('postByEmail', { payload: 'not gzip', headers: { ...zipped, 'content-type': 'application/json' } }, 400);
    const res = await call('getByEmail', { query: { email }, headers: { ...bearer, 'accept-encoding': 'br' } }, 200);
    expect(res.headers['content-encoding']).toBe('br');
  });
});

describe('POST lookups, limits', () => {
  it('answers 413 for a body over 10 MB', async () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    await call('postByEmail', { body: { inputs: [big] }, headers: bearer }, 413);
  });

  it('names every input of each endpoint in the document', () => {
    for (const endpoint of LOOKUP_ENDPOINT_NAMES) {
      const params = doc.paths[`/v2/identities/${endpoint}`].get.parameters.map((p: Json) => p.name);
      expect(params).toEqual(expect.arrayContaining([...LOOKUP_ENDPOINTS[endpoint]]));
    }
  });
});

describe('API keys, as documented', () => {
  const console = () => ({ ...CONSOLE_HEADERS, cookie });
  it('makes, reads, changes, rotates and revokes a key, and refuses as documented', async () => {
    const made = await call(
      'createKey',
      {
        body: { name: 'Production', rateLimit: 600, ipAllowlist: ['203.0.113.0/24'], expiresAt: null },
        headers: console(),
      },
      201,
    );
    const id = Object.keys(made.json().keys)[0]!;
    await call('listKeys', { headers: { cookie } }, 200);
    await call('getKey', { params: { id }, headers: { cookie } }, 200);
    await call(
      'updateKey',
      { params: { id }, body: { name: 'Production (EU)', rateLimit: 300 }, headers: console() },
      200,
    );
    await call('rotateKey', { params: { id }, body: { graceSeconds: 3600 }, headers: console() }, 200);
    const revoked = await call('revokeKey', { params: { id }, headers: console() }, 200);
    expect(Object.keys(revoked.json().keys[id]).sort()).toEqual(['deletedAt', 'id']);

    await call('createKey', { body: { name: '' }, headers: console() }, 400);
    await call('createKey', { body: { name: 'No session' }, headers: CONSOLE_HEADERS }, 401);
    await call('listKeys', { headers: { cookie: 'tessera_session=expired' } }, 401);
    await call(
      'createKey',
      { body: { name: 'No header' }, headers: { cookie, 'content-type': 'application/json' } },
      403,
    );
    await call('createKey', { payload: 'name', headers: { ...console(), 'content-type': 'application/xml' } }, 415);
    await call('createKey', { body: { name: 'Unsigned' }, headers: { ...CONSOLE_HEADERS, cookie: unsigned } }, 451);
    await call('listKeys', {}, 401);
    const signer = { ...CONSOLE_HEADERS, cookie: unsigned };
    await call('listKeys', { headers: signer }, 451);
    await call('getKey', { params: { id }, headers: signer }, 451);
    await call('updateKey', { params: { id }, body: { name: 'x' }, headers: signer }, 451);
    await call('rotateKey', { params: { id }, body: {}, headers: signer }, 451);
    await call('revokeKey', { params: { id }, headers: signer }, 451);
    await call('getKey', { params: { id }, headers: { cookie } }, 404);
    await call('getKey', { params: { id: 'not-a-key' }, headers: { cookie } }, 400);
    await call('updateKey', { params: { id }, body: { name: 'Gone' }, headers: console() }, 404);
    await call('updateKey', { params: { id }, body: { rateLimit: 0 }, headers: console() }, 400);
    await call('rotateKey', { params: { id }, body: {}, headers: console() }, 404);
    await call('revokeKey', { params: { id }, headers: console() }, 404);
    await call('revokeKey', { params: { id }, headers: { 'x-requested-with': 'XMLHttpRequest' } }, 401);
  });
});

describe('templates, as documented', () => {
  const console = () => ({ ...CONSOLE_HEADERS, cookie });
  it('makes, reads, changes, publishes, restores, previews and deletes a template, and refuses as documented', async () => {
    const made = await call(
      'createTemplate',
      {
        body: {
          name: 'Contact card',
          description: 'Name, best e-mail and phone',
          expression: '{"name": firstName & " " & lastName, "email": emails[0].address}',
        },
        headers: console(),
      },
      200,
    );
    const id = Number(Object.keys(made.json().templates)[0]);
    await call('listTemplates', { headers: { cookie } }, 200);
    await call('publishTemplate', { params: { id }, headers: console() }, 200);
    await call(
      'updateTemplate',
      {
        params: { id },
        body: { expression: '{"name": firstName & " " & lastName, "phone": phones[0].number}' },
        headers: console(),
      },
      200,
    );
    await call('getTemplate', { params: { id }, headers: { cookie } }, 200);
    await call('restoreTemplate', { params: { id }, body: { version: 1 }, headers: console() }, 200);
    await call(
      'previewTemplate',
      { body: { expression: '{"name": firstName & " " & lastName, "city": city}', format: 'csv' }, headers: console() },
      200,
    );
    await call('deleteTemplate', { params: { id }, headers: console() }, 200);

    await call('createTemplate', { body: { name: 'Broken', expression: '{"a": ' }, headers: console() }, 400);
    await call('createTemplate', { body: { name: 'x', expression: '1' }, headers: CONSOLE_HEADERS }, 401);
    await call(
      'createTemplate',
      { body: { name: 'x', expression: '1', organizationId: null }, headers: console() },
      403,
    );
    await call('createTemplate', { payload: 'x', headers: { ...console(), 'content-type': 'application/xml' } }, 415);
    await call('listTemplates', { headers: { cookie: unsigned } }, 403);
    await call('getTemplate', { params: { id }, headers: { cookie } }, 404);
    await call('updateTemplate', { params: { id: 1 }, body: { name: 'Mine now' }, headers: console() }, 403);
    await call('updateTemplate', { params: { id }, body: { name: 'Gone' }, headers: console() }, 404);
    const fresh = await call(
      'createTemplate',
      { body: { name: 'Draftless', expression: '1' }, headers: console() },
      200,
    );
    const other = Number(Object.keys(fresh.json().templates)[0]);
    await call('publishTemplate', { params: { id: other }, headers: console() }, 200);
    await call('publishTemplate', { params: { id: other }, headers: console() }, 409);
    await call('restoreTemplate', { params: { id: other }, body: { version: 9 }, headers: console() }, 404);
    await call('deleteTemplate', { params: { id: 1 }, headers: console() }, 403);
    await call('previewTemplate', { body: { expression: '(' }, headers: console() }, 400);
    await call(
      'previewTemplate',
      {
        body: { expression: 'firstName', sample: { identityId: String(people[2]!.id) } },
        headers: { ...CONSOLE_HEADERS, cookie: unpaid },
      },
      402,
    );
  });
});

describe('usage, as documented', () => {
  const range = () => ({
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 3_600_000).toISOString(),
  });
  it("reads a key's own usage and a session's, and refuses as documented", async () => {
    // The one-a-minute key made a single metered call (in beforeAll): small examples. Rate limits are the lookups'.
    const series = await call('usageSeries', { query: { ...range(), interval: 'hour' }, headers: limited }, 200);
    expect(series.json().usageSeries.points.reduce((sum: number, p: Json) => sum + p.value, 0)).toBe(1);
    const totals = await call('usageTotals', { query: range(), headers: limited }, 200);
    expect(totals.json().usageTotals.totals.requests).toBe(1);
    const calls = await call('usageCalls', { query: { ...range(), pageSize: '10' }, headers: limited }, 200);
    expect(calls.json().usageCalls.calls).toHaveLength(1);
    const csv = await call('usageCallsCsv', { query: range(), headers: limited }, 200);
    expect(csv.body.trim().split('\r\n')).toHaveLength(2);
    for (const id of ['usageSeries', 'usageTotals', 'usageCalls', 'usageCallsCsv']) {
      await call(id, { query: range(), headers: bearer }, 200);
      await call(id, { query: range(), headers: { cookie } }, 200);
      await call(id, { query: { tz: 'Mars/Olympus' }, headers: bearer }, 400);
      await call(id, { query: range() }, 401);
      await call(id, { query: range(), headers: { authorization: `Bearer ${'A1'.repeat(24)}` } }, 401);
      await call(id, { query: { ...range(), userId: String(userId + 1) }, headers: bearer }, 403);
      await call(id, { query: range(), headers: fenced }, 403);
      await call(id, { query: range(), headers: { cookie: unsigned } }, 451);
    }
    const outside = await call('usageCalls', { query: { keyId: 'A1'.repeat(8) }, headers: bearer }, 403);
    expect(outside.json().error).toMatch(/keys you manage/);
    await call('usageCallsCsv', { query: { pageSize: '10' }, headers: bearer }, 400);
  });

  it('tells each lookup answered whole what it cost and what is left of the allowance', async () => {
    const res = await call('getByEmail', { query: { email: people[0]!.emails[0]!.address }, headers: bearer }, 200);
    expect(res.headers['x-call-cost']).toMatch(/^\d+\.\d{6}$/);
  });
});

describe('the reference', () => {
  it('serves this document to anyone, naming this deployment as its server', async () => {
    const res = await call('openApi', {}, 200);
    expect(res.json().servers[0].url).toBe(TEST_PUBLIC_URL);
    // Public, so a session that has not accepted the agreement reads it too (no 451 declared).
    await call('openApi', { headers: { cookie: unsigned } }, 200);
    const etag = String(res.headers.etag);
    const unchanged = await call('openApi', { headers: { 'if-none-match': etag } }, 304);
    expect(unchanged.body).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
    const zipped = await call('openApi', { headers: { 'accept-encoding': 'gzip', 'if-none-match': 'W/"other"' } }, 200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
  });
});

describeWebhooks(call, () => ({ t, unsigned }));
describeSubscriptions(call, () => ({
  t,
  unsigned,
  bearer,
  ids: people.map((p) => p.id),
  emails: people.map((p) => p.emails[0]!.address),
}));
describeJobs(call, () => ({ t, unsigned, bearer, emails: people.map((p) => p.emails[0]!.address) }));

describe('coverage', () => {
  it('called every operation of the document and had it succeed', () => {
    const missing = [...OPERATIONS.keys()].filter((id) => ![...(seen.get(id) ?? [])].some((s) => s < 300));
    expect(missing).toEqual([]);
  });

  it('saw 451 from every operation that declares it, and from none that does not', () => {
    const declared = [...OPERATIONS].filter(([, o]) => o.op.responses['451']).map(([id]) => id);
    const answered = [...seen].filter(([, statuses]) => statuses.has(451)).map(([id]) => id);
    expect(answered.sort()).toEqual(declared.sort());
  });

  it.runIf(UPDATE)('keeps the calls as the examples and rewrites docs/openapi.json', () => {
    writeFileSync(EXAMPLES, `${JSON.stringify(captured, null, 2)}\n`);
    const generated = openApiDocument({ examples: captured });
    const published = existsSync(PUBLISHED) ? JSON.parse(readFileSync(PUBLISHED, 'utf8')) : null;
    if (published) expect(compatibilityProblems(published, generated, readFileSync(NOTES, 'utf8'))).toEqual([]);
    writeFileSync(PUBLISHED, `${JSON.stringify(generated, null, 2)}\n`);
    // Written as the repository's formatter lays JSON out, so `npm run lint` stays clean after a regeneration.
    execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/biome'), ['format', '--write', EXAMPLES, PUBLISHED], {
      cwd: REPO_ROOT,
      stdio: 'ignore',
    });
    // The JavaScript client's types are generated from the published document: kept in step with it.
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'clients/js/scripts/generate.mjs')], { cwd: REPO_ROOT });
  });
});
