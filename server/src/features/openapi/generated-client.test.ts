/**
 * A client generated from the served document types every field (issue 31 item 4, decision 0058): openapi-typescript
 * makes types of GET /v2/openapi.json, and a program reading every field of the Full record (docs/lookup-record.schema
 * .json, which holds every field of docs/identity-record.schema.json) and of `explain`, through each lookup's 200
 * reply, must pass tsc with each field exactly the type the record schema gives: a field that became unknown or any
 * fails. The same program against the earlier model (identities a union with a free-form object) must fail.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOOKUP_ENDPOINT_NAMES } from '@tessera/common/lookups';
import Fastify from 'fastify';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import type { Json } from './base';
import { registerOpenApiRoute } from './routes';

const readJson = (file: string): Json => JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8'));

/** The TypeScript type a JSON Schema leaf gives, as openapi-typescript writes it. */
function expected(schema: Json): string {
  if (schema.anyOf) return schema.anyOf.map(expected).join(' | ');
  if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types
    .map(
      (t: string) => ({ string: 'string', integer: 'number', number: 'number', boolean: 'boolean', null: 'null' })[t],
    )
    .join(' | ');
}

interface Read {
  /** How the program reads it, e.g. `.emails[0].address` or `.finances!.income`. */
  access: string;
  type: string;
}

/** Every leaf of a schema and how to read it: arrays by their first item, maps by a key, optional objects with `!`. */
function leaves(schema: Json, resolve: (s: Json) => Json, access = ''): Read[] {
  const s = resolve(schema);
  const nonNull = s.anyOf?.filter((b: Json) => resolve(b).type !== 'null');
  if (nonNull?.length === 1 && resolve(nonNull[0]).type === 'object') return leaves(nonNull[0], resolve, `${access}!`);
  if (s.type === 'object' && s.properties) {
    const required = new Set<string>(s.required ?? []);
    return Object.entries<Json>(s.properties).flatMap(([name, p]) => {
      if (required.has(name)) return leaves(p, resolve, `${access}.${name}`);
      if (resolve(p).type === 'object') return leaves(p, resolve, `${access}.${name}!`);
      return leaves(p, resolve, `${access}.${name}`).map((r) => ({ ...r, type: `${r.type} | undefined` }));
    });
  }
  if (s.type === 'object' && typeof s.additionalProperties === 'object')
    return leaves(s.additionalProperties, resolve, `${access}['anyKey']`);
  if (s.type === 'array' && resolve(s.items).type === 'object') return leaves(s.items, resolve, `${access}[0]`);
  if (s.type === 'array') return [{ access, type: `Array<${expected(resolve(s.items))}>` }];
  return [{ access, type: expected(s) }];
}

/** A statement that reads `expression` and fails to compile unless its type is exactly `type`. */
const read = (expression: string, type: string) =>
  `{ const value = ${expression}; exactly<typeof value, ${type}>(true); n += value === undefined ? 0 : 1; }`;

function program(doc: Json): string {
  const resolve = (s: Json): Json =>
    s.$ref
      ? resolve(
          (s.$ref as string)
            .split('/')
            .slice(1)
            .reduce((at: Json, part) => at[part], doc),
        )
      : s;
  const record = readJson('docs/lookup-record.schema.json');
  const reads = [
    ...leaves(record, resolve),
    { access: '.score', type: 'number' },
    { access: '.matchedOn', type: 'Array<string>' },
    ...leaves(doc.components.schemas.Explain, resolve, '.explain!'),
  ];
  const lines = [
    "import type { paths } from './api';",
    'type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;',
    'function exactly<A, B>(_check: Equal<A, B>): void {}',
    'let n = 0;',
  ];
  for (const endpoint of LOOKUP_ENDPOINT_NAMES) {
    const at = `paths['/v2/identities/${endpoint}']`;
    lines.push(
      `declare const get_${endpoint}: ${at}['get']['responses'][200]['content']['application/json'];`,
      `declare const post_${endpoint}: ${at}['post']['responses'][200]['content']['application/json'];`,
      `declare const csv_${endpoint}: ${at}['get']['responses'][200]['content']['text/csv'];`,
      read(`csv_${endpoint}`, 'string'),
      read(`get_${endpoint}.requestId`, 'string'),
      read(`post_${endpoint}.results[0].input`, 'string | { [key: string]: string }'),
    );
    for (const identity of [`get_${endpoint}.identities[0]`, `post_${endpoint}.results[0].identities[0]`]) {
      for (const r of reads) lines.push(read(`${identity}${r.access}`, r.type));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** tsc's complaints about the program against types made from `doc`; empty when it type-checks. */
async function typeCheck(doc: Json): Promise<string> {
  writeFileSync(path.join(dir, 'api.ts'), astToString(await openapiTS(doc as Parameters<typeof openapiTS>[0])));
  writeFileSync(path.join(dir, 'reads.ts'), program(doc));
  const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  const options = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler'];
  try {
    execFileSync(process.execPath, [tsc, ...options, path.join(dir, 'reads.ts')], { cwd: dir, encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

let dir: string;
let served: Json;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tessera-client-'));
  const app = Fastify();
  registerOpenApiRoute(app, new URL('http://localhost:3000/'));
  served = (await app.inject({ url: '/v2/openapi.json' })).json();
  await app.close();
});
afterAll(() => (process.env.KEEP ? undefined : rmSync(dir, { recursive: true, force: true })));

describe('a client generated by openapi-typescript from the served document', () => {
  it('reads every field of the Full record and of explain with its own type, in every lookup reply', async () => {
    const fields = (s: Json): string[] => Object.keys(s.properties ?? {});
    expect(fields(readJson('docs/lookup-record.schema.json'))).toEqual(
      expect.arrayContaining(fields(readJson('docs/identity-record.schema.json'))),
    );
    expect(await typeCheck(served)).toBe('');
  }, 60_000);

  it('would fail were the identities a union with a free-form object, as before (the check bites)', async () => {
    const before = structuredClone(served);
    before.components.schemas.Identities.items = {
      anyOf: [{ $ref: '#/components/schemas/FullIdentity' }, { $ref: '#/components/schemas/Identity' }],
    };
    const errors = await typeCheck(before);
    // Every read of a record field through a GET reply is refused (score, matchedOn and explain, on both sides of
    // the union, stayed typed).
    const lines = program(before).split('\n');
    const record = /const value = get_byEmail\.identities\[0\]\.(?!score|matchedOn|explain)/;
    const get = lines.flatMap((line, i) => (record.test(line) ? [i + 1] : []));
    expect(get.length).toBeGreaterThan(50);
    for (const line of get) expect(errors, lines[line - 1]).toContain(`reads.ts(${line},`);
  }, 60_000);
});
