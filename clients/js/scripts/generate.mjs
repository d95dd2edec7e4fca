#!/usr/bin/env node
/**
 * Writes src/generated/openapi.ts from the published OpenAPI document (docs/openapi.json at the repository's root):
 * the lookup schemas (LookupRecord, FullIdentity, Identity, LookupResult, BatchResult, the error body), the options
 * of GET, POST and PUT, each endpoint's inputs and batch inputs, and the per-endpoint methods of the client; the
 * usage reports' replies (UsageSeries, UsageTotals, UsageCalls) and queries; and the bulk jobs' and subscriptions'
 * records (Job, Jobs, Subscription, ...), a job's options and what a subscription is made by.
 *
 *   node scripts/generate.mjs            writes the file
 *   node scripts/generate.mjs --check    exits 1 when the file differs from what the document gives (CI, the suite)
 *   node scripts/generate.mjs --openapi path/to/openapi.json
 *
 * The output is passed through Biome (the repository's formatter) when it is installed, so that the committed file
 * stays as `biome check --write` leaves it and the check compares like with like.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.resolve(here, '..');
const outDir = path.join(packageDir, 'src/generated');
const args = process.argv.slice(2);
const given = args.indexOf('--openapi');
const docFile = given >= 0 ? path.resolve(args[given + 1]) : path.resolve(packageDir, '../../docs/openapi.json');
const check = args.includes('--check');

const doc = JSON.parse(readFileSync(docFile, 'utf8'));
const LOOKUP_PREFIX = '/v2/identities/';
/** Option names: every lookup takes the same ones; anything else in a GET's query is an input. */
const OPTION_NAMES = ['template', 'minScore', 'explain', 'limit', 'format'];
/**
 * Query parameters the library does not offer yet, so no type offers an option it would not send: `purpose` (a
 * lookup's permissible purpose, issue 34) is neither an input nor, until the client sends it, an option.
 */
const NOT_OFFERED = ['purpose'];
/**
 * Schema names that would shadow a global in TypeScript, or the client's own classes (`client.jobs` is a `Jobs`, whose
 * `list` answers a page of jobs).
 */
const RENAME = { Error: 'ErrorBody', Jobs: 'JobPage', Subscriptions: 'SubscriptionsById' };

const fail = (message) => {
  console.error(`generate: ${message}`);
  process.exit(2);
};

// ---------------------------------------------------------------------------------------------------------------
// JSON Schema (2020-12, as OpenAPI 3.1 uses it) to TypeScript

const typeName = (name) => RENAME[name] ?? name;
const refName = (ref) => {
  const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
  if (!m) fail(`unsupported $ref ${ref}`);
  return typeName(m[1]);
};
const literal = (value) => JSON.stringify(value);
const isIdentifier = (name) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
const key = (name) => (isIdentifier(name) ? name : literal(name));

/** A JSDoc block of `text` (and an example or default), indented by `pad`; empty when there is nothing to say. */
function jsdoc(text, pad = '') {
  const lines = (text ?? '').replace(/\*\//g, '*\\/').trim().split('\n');
  if (lines.length === 1 && !lines[0]) return '';
  if (lines.length === 1) return `${pad}/** ${lines[0]} */\n`;
  return `${pad}/**\n${lines.map((l) => `${pad} *${l ? ` ${l}` : ''}`).join('\n')}\n${pad} */\n`;
}

function describe(schema) {
  const parts = [];
  if (schema.description) parts.push(schema.description);
  if (schema.title && !schema.description) parts.push(schema.title);
  if (schema.default !== undefined) parts.push(`Default: ${literal(schema.default)}.`);
  return parts.join('\n\n');
}

const union = (types) => {
  const unique = [...new Set(types)];
  return unique.length === 1 ? unique[0] : unique.map((t) => (t.includes('=>') ? `(${t})` : t)).join(' | ');
};

const PRIMITIVE = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', null: 'null' };

/** The TypeScript type of `schema`; objects are written over several lines, indented by `pad`. */
function tsType(schema, pad = '', names = {}) {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return union(schema.enum.map(literal));
  if (schema.anyOf || schema.oneOf) return union((schema.anyOf ?? schema.oneOf).map((s) => tsType(s, pad, names)));
  if (schema.allOf) {
    const own = { ...schema };
    delete own.allOf;
    const parts = schema.allOf.map((s) => tsType(s, pad, names));
    if (own.properties || own.type === 'object') parts.push(objectType(own, pad, names));
    return parts.join(' & ');
  }
  if (Array.isArray(schema.type)) return union(schema.type.map((t) => tsType({ ...schema, type: t }, pad, names)));
  switch (schema.type) {
    case 'array': {
      const item = tsType(schema.items, pad, names);
      return /^[A-Za-z0-9_]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case 'object':
      return objectType(schema, pad, names);
    case undefined:
      return 'unknown';
    default:
      if (!PRIMITIVE[schema.type]) fail(`unsupported type ${schema.type}`);
      return PRIMITIVE[schema.type];
  }
}

/** An object type literal; `names` maps property names to named types to use instead (e.g. metadata). */
function objectType(schema, pad, names = {}) {
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const inner = `${pad}  `;
  const lines = [];
  for (const [name, prop] of Object.entries(props)) {
    const type = names[name] ?? tsType(prop, inner, names);
    lines.push(`${jsdoc(describe(prop), inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${type};`);
  }
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    // Declared properties must fit the index signature: say `unknown` when they would not.
    const type = Object.keys(props).length > 0 ? 'unknown' : tsType(extra, inner, names);
    lines.push(`${inner}[key: string]: ${type};`);
  } else if (extra === undefined && Object.keys(props).length === 0 && schema.unevaluatedProperties === undefined) {
    return 'Record<string, unknown>';
  }
  return lines.length ? `{\n${lines.join('\n')}\n${pad}}` : 'Record<string, never>';
}

/** `export interface` when the schema is a plain object (or extends named ones), else `export type`. */
function declaration(name, schema, names = {}) {
  const doc = jsdoc(describe(schema));
  if (schema.type === 'object' && !schema.anyOf && !schema.oneOf) {
    const bases = (schema.allOf ?? []).map((s) => (s.$ref ? refName(s.$ref) : null));
    if (bases.every(Boolean)) {
      const own = { ...schema };
      delete own.allOf;
      const body = objectType(own, '', names);
      const extendsClause = bases.length ? ` extends ${bases.join(', ')}` : '';
      if (body.startsWith('{')) return `${doc}export interface ${name}${extendsClause} ${body}\n`;
    }
  }
  return `${doc}export type ${name} = ${tsType(schema, '', names)};\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the document

const schemas = doc.components?.schemas ?? {};
const resolveParam = (p) => {
  if (!p.$ref) return p;
  const m = /^#\/components\/parameters\/(.+)$/.exec(p.$ref);
  if (!m) fail(`unsupported parameter $ref ${p.$ref}`);
  return doc.components.parameters[m[1]];
};

const endpoints = Object.keys(doc.paths)
  .filter((p) => p.startsWith(LOOKUP_PREFIX) && /^by[A-Z][A-Za-z0-9]*$/.test(p.slice(LOOKUP_PREFIX.length)))
  .map((p) => p.slice(LOOKUP_PREFIX.length))
  .sort();
if (endpoints.length === 0) fail(`no ${LOOKUP_PREFIX}by* paths in ${docFile}`);

/** Every $ref reached from `value`, followed through components (schemas and responses). */
function reachable(value, seen = new Set()) {
  if (Array.isArray(value)) for (const v of value) reachable(v, seen);
  else if (value && typeof value === 'object') {
    if (typeof value.$ref === 'string') {
      const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(value.$ref) ?? [];
      const id = `${kind}/${name}`;
      if (kind && !seen.has(id)) {
        seen.add(id);
        reachable(doc.components[kind]?.[name], seen);
      }
    }
    for (const v of Object.values(value)) reachable(v, seen);
  }
  return seen;
}

const operations = endpoints.map((name) => {
  const item = doc.paths[`${LOOKUP_PREFIX}${name}`];
  for (const method of ['get', 'post', 'put']) if (!item[method]) fail(`${name} has no ${method.toUpperCase()}`);
  const getParams = item.get.parameters.map(resolveParam).filter((p) => !NOT_OFFERED.includes(p.name));
  const inputs = getParams.filter((p) => p.in === 'query' && !OPTION_NAMES.includes(p.name));
  const getOptions = getParams.filter((p) => p.in === 'query' && OPTION_NAMES.includes(p.name));
  const postSchema = item.post.requestBody?.content?.['application/json']?.schema;
  if (!postSchema?.properties?.inputs?.items) fail(`${name}: POST body has no inputs.items`);
  const items = postSchema.properties.inputs.items;
  const branches = items.anyOf ?? items.oneOf ?? [items];
  const object = branches.find((b) => b.type === 'object');
  if (!object) fail(`${name}: POST inputs have no object form`);
  const stringInput = branches.some((b) => b.type === 'string') ? (object.required ?? [])[0] : null;
  const putParams = item.put.parameters
    .map(resolveParam)
    .filter((p) => p.in === 'query' && !NOT_OFFERED.includes(p.name));
  return { name, item, inputs, getOptions, postSchema, items, object, stringInput, putParams };
});

// Ids are whole numbers the document carries as text (past 2^53 a JSON number loses digits): the client takes a
// number or text, as the Python and Java clients do, and sends a number as its decimal text (issue 31).
const NUMERIC_INPUT = 'id';
const widen = (schema) => (schema?.type === 'string' ? { ...schema, type: ['integer', 'string'] } : schema);
for (const op of operations) {
  op.inputs = op.inputs.map((p) => (p.name === NUMERIC_INPUT ? { ...p, schema: widen(p.schema) } : p));
  const widenBranch = (b) => {
    if (b.type === 'string') return op.stringInput === NUMERIC_INPUT ? widen(b) : b;
    if (b.type !== 'object' || !b.properties?.[NUMERIC_INPUT]) return b;
    return { ...b, properties: { ...b.properties, [NUMERIC_INPUT]: widen(b.properties[NUMERIC_INPUT]) } };
  };
  if (op.items.anyOf) op.items = { ...op.items, anyOf: op.items.anyOf.map(widenBranch) };
  else if (op.items.oneOf) op.items = { ...op.items, oneOf: op.items.oneOf.map(widenBranch) };
  else op.items = widenBranch(op.items);
}

// Every endpoint must take the same options, or one options type would mislead.
const signature = (params) => JSON.stringify(params.map((p) => [p.name, p.required ?? false, p.schema]));
const bodySignature = (s) => JSON.stringify(Object.entries(s.properties).filter(([n]) => n !== 'inputs'));
for (const op of operations.slice(1)) {
  const first = operations[0];
  if (signature(op.getOptions) !== signature(first.getOptions)) fail(`${op.name}: GET options differ`);
  if (bodySignature(op.postSchema) !== bodySignature(first.postSchema)) fail(`${op.name}: POST options differ`);
  if (signature(op.putParams) !== signature(first.putParams)) fail(`${op.name}: PUT options differ`);
}
const metadataSchema = operations[0].object.properties?.metadata;
if (!metadataSchema) fail('POST inputs carry no metadata');

// The usage reports a key reads its own calls with (issue 31): their replies and queries.
const USAGE = { series: '/v2/usage/series', totals: '/v2/usage/totals', calls: '/v2/usage/calls' };
for (const [name, p] of Object.entries(USAGE)) if (!doc.paths[p]?.get) fail(`no GET ${p} (usage ${name})`);
const usageParams = (name) => doc.paths[USAGE[name]].get.parameters.map(resolveParam).filter((p) => p.in === 'query');

// Bulk jobs and change subscriptions (issue 33): their records, the list replies and what making one takes.
const JOBS = { list: '/v2/jobs', one: '/v2/jobs/{id}', cancel: '/v2/jobs/{id}/cancel', result: '/v2/jobs/{id}/result' };
const SUBSCRIPTIONS = { list: '/v2/subscriptions', one: '/v2/subscriptions/{id}' };
for (const p of [...Object.values(JOBS), ...Object.values(SUBSCRIPTIONS)]) if (!doc.paths[p]) fail(`no ${p}`);
const newSubscription = doc.paths[SUBSCRIPTIONS.list].post?.requestBody?.content?.['application/json']?.schema;
if (!newSubscription?.properties) fail(`POST ${SUBSCRIPTIONS.list} has no JSON body`);
// The lookup options and the result's format: `endpoint` is the call's own argument, and a stored upload (`upload`)
// is another way to give the rows, not an option of how they are looked up.
const jobOptions = (doc.paths[JOBS.list].post?.parameters ?? [])
  .map(resolveParam)
  .filter((p) => p.in === 'query' && p.name !== 'endpoint' && p.name !== 'upload');

const used = new Set();
for (const op of operations) for (const id of reachable(op.item)) used.add(id);
for (const p of Object.values(USAGE)) for (const id of reachable(doc.paths[p])) used.add(id);
const schemaNames = Object.keys(schemas).filter((n) => used.has(`schemas/${n}`));
for (const needed of ['LookupRecord', 'FullIdentity', 'Identity', 'LookupResult', 'BatchResult', 'Error']) {
  if (!schemaNames.includes(needed)) fail(`schema ${needed} is not used by the lookups`);
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

const pascal = (name) => name[0].toUpperCase() + name.slice(1);
const paramsObject = (params) => ({
  type: 'object',
  properties: Object.fromEntries(
    params.map((p) => [p.name, { ...p.schema, description: p.description ?? p.schema?.description }]),
  ),
  required: params.filter((p) => p.required).map((p) => p.name),
  additionalProperties: false,
});
const names = { metadata: 'Metadata' };

const header = (what) => `/**
 * ${what}, generated by scripts/generate.mjs from docs/openapi.json
 * (${doc.info.title} ${doc.info.version}). Do not edit: run \`npm run generate\` in clients/js when the document changes.
 * The client's suite fails while these files differ from what the document gives.
 */
`;

let out = `${header("The Tessera lookup API's records, replies, errors and options")}
`;

// Usage replies and queries have a file of their own (usage.ts): the records and options file stays readable.
const isUsage = (name) => name.startsWith('Usage');
for (const name of schemaNames.filter((n) => !isUsage(n)))
  out += `${declaration(typeName(name), schemas[name], names)}\n`;

out += `/** What went wrong, for programs: the \`code\` of an error reply. */
export type ErrorCode = ErrorBody['code'];

${declaration('Metadata', metadataSchema)}
${jsdoc('The options of a single lookup (GET), in its query string beside the inputs.')}export interface QueryOptions ${objectType(paramsObject(operations[0].getOptions), '')}

${jsdoc('The options of a batch lookup (POST), in its body beside `inputs`.')}export interface BodyOptions ${objectType({ ...operations[0].postSchema, properties: Object.fromEntries(Object.entries(operations[0].postSchema.properties).filter(([n]) => n !== 'inputs')), required: [] }, '')}

${jsdoc('The options of a CSV upload (PUT), in its query string.')}export interface UploadQueryOptions ${objectType(paramsObject(operations[0].putParams), '')}

/** The lookup endpoints, \`/v2/identities/{endpoint}\`. */
export const ENDPOINTS = [${operations.map((op) => literal(op.name)).join(', ')}] as const;

/** One of the lookup endpoints. */
export type Endpoint = (typeof ENDPOINTS)[number];
`;
const records = out;
out = `${header("The Tessera usage API's replies and queries (GET /v2/usage/...)")}
`;
for (const name of schemaNames.filter(isUsage)) out += `${declaration(typeName(name), schemas[name], names)}\n`;
out += `${jsdoc('The query of a usage series (GET /v2/usage/series).')}export interface UsageSeriesQuery ${objectType(paramsObject(usageParams('series')), '')}

${jsdoc('The query of usage totals (GET /v2/usage/totals).')}export interface UsageTotalsQuery ${objectType(paramsObject(usageParams('totals')), '')}

${jsdoc('The query of a page of calls (GET /v2/usage/calls).')}export interface UsageCallsQuery ${objectType(paramsObject(usageParams('calls')), '')}
`;
const usage = out;
out = `${header("The Tessera bulk job and subscription APIs' records and replies (/v2/jobs, /v2/subscriptions)")}
`;
const jobsUsed = new Set();
for (const p of [...Object.values(JOBS), ...Object.values(SUBSCRIPTIONS)]) {
  for (const id of reachable(doc.paths[p])) jobsUsed.add(id);
}
const jobSchemaNames = Object.keys(schemas).filter((n) => jobsUsed.has(`schemas/${n}`) && !used.has(`schemas/${n}`));
for (const needed of ['Job', 'Jobs', 'Subscription', 'Subscriptions', 'DeletedSubscription']) {
  if (!jobSchemaNames.includes(needed)) fail(`schema ${needed} is not used by the jobs and subscriptions paths`);
}
for (const name of jobSchemaNames) out += `${declaration(typeName(name), schemas[name], names)}\n`;
out += `${jsdoc('The options of a bulk job (POST /v2/jobs), in its query string beside `endpoint`.')}export interface JobQueryOptions ${objectType(paramsObject(jobOptions), '')}

${jsdoc('What a subscription is made by (POST /v2/subscriptions): exactly one of `identityId`, `email`, `phone`, `md5`, `sha256`; and optionally `template`.')}export interface NewSubscription ${objectType(newSubscription, '')}
`;
const jobs = out;
out = `${header("Each lookup endpoint's inputs")}import type { Metadata } from './records.js';

`;

for (const op of operations) {
  const P = pascal(op.name);
  out += `${jsdoc(`Named inputs of ${op.name}: its GET query and the CSV columns it reads.`)}`;
  out += `export interface ${P}Inputs ${objectType(paramsObject(op.inputs), '')}\n\n`;
  out += `${jsdoc(`One input of a ${op.name} batch (POST): ${op.stringInput ? `the ${op.stringInput} as a string, or ` : ''}named inputs with optional metadata.`)}`;
  out += `export type ${P}BatchInput = ${tsType(op.items, '', names)};\n\n`;
}

const mapOf = (fn, end = ';') => operations.map((op) => `  ${op.name}: ${fn(op)}${end}`).join('\n');
out += `/** What a single lookup of each endpoint takes: its named inputs, or its one key as a string. */
export interface EndpointInputs {
${mapOf((op) => {
  const plain = op.stringInput === NUMERIC_INPUT ? 'number | string' : 'string';
  return op.stringInput ? `${plain} | ${pascal(op.name)}Inputs` : `${pascal(op.name)}Inputs`;
})}
}

/** One input of each endpoint's batch. */
export interface EndpointBatchInputs {
${mapOf((op) => `${pascal(op.name)}BatchInput`)}
}

/** Each endpoint's input names: its GET query names and the CSV columns it reads. */
export const INPUT_NAMES = {
${mapOf((op) => `[${op.inputs.map((p) => literal(p.name)).join(', ')}]`, ',')}
} as const;

/** The input a plain string stands for in each endpoint's single lookup (null: named inputs only). */
export const STRING_INPUT = {
${mapOf((op) => literal(op.stringInput), ',')}
} as const;

`;
const inputs = out;
out = `${header('The lookups, each endpoint three ways')}import type {
  BatchOptions,
  BatchReplyFor,
  CsvReply,
  CsvSource,
  CsvUploadOptions,
  LookupOptions,
  LookupReplyFor,
} from '../types.js';
import type {
${operations.map((op) => `  ${pascal(op.name)}BatchInput,`).join('\n')}
  EndpointBatchInputs,
  EndpointInputs,
} from './inputs.js';
import type { Endpoint } from './records.js';

/**
 * The ten lookups, each three ways: \`byX\` looks up one input (GET), \`byXBatch\` up to 1,000 (POST), \`byXCsv\` a CSV
 * of any length, streamed (PUT). Each calls the generic \`lookup\`, \`batch\` or \`uploadCsv\`.
 */
export abstract class Lookups {
  /** One input of \`endpoint\` (GET). */
  abstract lookup<E extends Endpoint, const O extends LookupOptions = LookupOptions>(
    endpoint: E,
    input: EndpointInputs[E],
    options?: O,
  ): Promise<LookupReplyFor<O>>;

  /** Up to 1,000 inputs of \`endpoint\` (POST), results in the order of the inputs. */
  abstract batch<E extends Endpoint, const O extends BatchOptions = BatchOptions>(
    endpoint: E,
    inputs: readonly EndpointBatchInputs[E][],
    options?: O,
  ): Promise<BatchReplyFor<O>>;

  /** A CSV of inputs of \`endpoint\` (PUT), its reply streamed back. */
  abstract uploadCsv(endpoint: Endpoint, source: CsvSource, options?: CsvUploadOptions): Promise<CsvReply>;
`;

const opDoc = (op, method, extra) => {
  const o = op.item[method];
  return jsdoc(
    `${o.summary} (${method.toUpperCase()} /v2/identities/${op.name}).\n\n${o.description ?? ''}${extra ?? ''}`,
    '  ',
  );
};
for (const op of operations) {
  const P = pascal(op.name);
  out += `
${opDoc(op, 'get')}  ${op.name}<const O extends LookupOptions = LookupOptions>(input: EndpointInputs['${op.name}'], options?: O): Promise<LookupReplyFor<O>> {
    return this.lookup('${op.name}', input, options);
  }

${opDoc(op, 'post')}  ${op.name}Batch<const O extends BatchOptions = BatchOptions>(inputs: readonly ${P}BatchInput[], options?: O): Promise<BatchReplyFor<O>> {
    return this.batch('${op.name}', inputs, options);
  }

${opDoc(op, 'put', `\n\nInput columns: ${op.inputs.map((p) => p.name).join(', ')}.`)}  ${op.name}Csv(source: CsvSource, options?: CsvUploadOptions): Promise<CsvReply> {
    return this.uploadCsv('${op.name}', source, options);
  }
`;
}
out += '}\n';
const lookups = out;
const index = `${header("The Tessera lookup API's types")}
/** The version of the OpenAPI document these types were generated from. */
export const API_VERSION = ${literal(doc.info.version)};

export * from './inputs.js';
export * from './jobs.js';
export * from './lookups.js';
export * from './records.js';
export * from './usage.js';
`;
const files = {
  'records.ts': records,
  'usage.ts': usage,
  'jobs.ts': jobs,
  'inputs.ts': inputs,
  'lookups.ts': lookups,
  'openapi.ts': index,
};

// ---------------------------------------------------------------------------------------------------------------
// Formatting and output

function format(text, outFile) {
  let biome;
  try {
    biome = createRequire(path.join(packageDir, 'package.json')).resolve('@biomejs/biome/bin/biome');
  } catch {
    console.warn('generate: Biome is not installed; the output is left as written');
    return text;
  }
  const run = spawnSync(process.execPath, [biome, 'format', `--stdin-file-path=${outFile}`], {
    cwd: packageDir,
    input: text,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) fail(`biome format failed:\n${run.stderr}${run.stdout}`);
  return run.stdout;
}

const stale = [];
for (const [name, text] of Object.entries(files)) {
  const outFile = path.join(outDir, name);
  const result = format(text, outFile);
  const current = existsSync(outFile) ? readFileSync(outFile, 'utf8') : null;
  const relative = path.relative(process.cwd(), outFile) || outFile;
  if (current === result) continue;
  stale.push(relative);
  if (!check) {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(outFile, result);
  }
}
const docName = path.relative(process.cwd(), docFile);
if (check && stale.length > 0) {
  console.error(`${stale.join(', ')} differ from what ${docName} gives: run \`npm run generate\` in clients/js`);
  process.exit(1);
}
console.log(stale.length === 0 ? `src/generated is up to date with ${docName}` : `wrote ${stale.join(', ')}`);
