/**
 * /v2/openapi.json: served to anyone, covering every lookup endpoint, key management and templates, complete (a
 * distinct summary, a description and a real example for every operation, every option described); published as
 * docs/openapi.json (conformance.test.ts with UPDATE_OPENAPI=1 rewrites it, refusing a breaking change without a
 * noted major version or correction); and every published version in git history compatible with the one before
 * it, or noted. That real replies match it: conformance.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LOOKUP_ENDPOINT_NAMES, PII_MESSAGES } from '@tessera/common/lookups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/harness';
import { breakingChanges, compatibilityProblems } from './compat';
import { inputExtras, openApiDocument, schemaOf } from './document';

const PUBLISHED = path.join(REPO_ROOT, 'docs/openapi.json');
const NOTES = path.join(REPO_ROOT, 'docs/api-changes.md');
const notes = () => readFileSync(NOTES, 'utf8');

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

describe('OpenAPI document', () => {
  it('is served to anyone and covers every lookup endpoint, key management, errors and authentication', async () => {
    const res = await t.app.inject('/v2/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const endpoint of LOOKUP_ENDPOINT_NAMES) {
      const item = doc.paths[`/v2/identities/${endpoint}`];
      for (const method of ['get', 'post', 'put']) {
        expect(item?.[method], `${method} ${endpoint}`).toBeDefined();
        for (const status of ['200', '400', '401', '402', '429', '503']) {
          expect(item[method].responses[status], `${method} ${endpoint} ${status}`).toBeDefined();
        }
      }
    }
    expect(doc.paths['/v2/identities/byPii'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'address', 'city', 'state', 'zip', 'template', 'minScore']),
    );
    expect(Object.keys(doc.paths['/v2/keys'])).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v2/keys/{id}'])).toEqual(['get', 'put', 'delete']);
    expect(doc.paths['/v2/keys/{id}/rotate'].post).toBeDefined();
    expect(doc.paths['/v2/keys'].post.requestBody.content['application/json'].schema.required).toEqual(['name']);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['apiKey', 'signedKey', 'legacyKey', 'session']);
    expect(doc.components.schemas.LookupRecord.properties.emails).toBeDefined();
    expect(doc.servers).toEqual([{ url: TEST_PUBLIC_URL, description: expect.any(String) }]);
  });

  // biome-ignore lint/suspicious/noExplicitAny: the document is JSON
  const operations = (doc: Record<string, any>) =>
    // biome-ignore lint/suspicious/noExplicitAny: the document is JSON
    Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] })),
    );

  it('gives every operation a distinct summary, a description, an operationId and a real example', () => {
    const doc = openApiDocument();
    const ops = operations(doc);
    // Lookups three ways, keys, templates, usage (series, totals, calls, calls.csv), webhooks, bulk jobs,
    // subscriptions, stored uploads, this document.
    expect(ops).toHaveLength(LOOKUP_ENDPOINT_NAMES.length * 3 + 6 + 8 + 4 + 9 + 5 + 4 + 4 + 1);
    expect(new Set(ops.map((o) => o.op.summary)).size).toBe(ops.length);
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
    for (const { path, method, op } of ops) {
      const where = `${method} ${path}`;
      expect(op.description, where).toMatch(/\S{3}/);
      expect(op.tags, where).toHaveLength(1);
      const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))!;
      // biome-ignore lint/suspicious/noExplicitAny: the document is JSON
      const media = Object.values<any>((success[1] as any).content);
      expect(
        media.some((m) => m.example !== undefined || m.examples !== undefined),
        `${where}: an example reply`,
      ).toBe(true);
      // biome-ignore lint/suspicious/noExplicitAny: the document is JSON
      for (const p of op.parameters ?? []) expect((p as any).description, `${where} ${p.name}`).toBeTruthy();
      // Errors are the shared responses (a 304 is not an error: the document's own, with its headers).
      for (const status of Object.keys(op.responses).filter((s) => Number(s) >= 400)) {
        expect(op.responses[status].$ref, `${where} ${status}`).toMatch(/^#\/components\/responses\//);
      }
    }
  });

  it('describes every option with its default, and the PII rule as common/lookups.ts states it', () => {
    const doc = openApiDocument();
    const get = doc.paths['/v2/identities/byEmail'].get;
    for (const name of ['template', 'explain', 'limit', 'format']) {
      // biome-ignore lint/suspicious/noExplicitAny: the document is JSON
      const p = get.parameters.find((x: any) => x.name === name);
      expect(p.schema.default, name).toBeDefined();
    }
    // biome-ignore lint/suspicious/noExplicitAny: the document is JSON
    const put = doc.paths['/v2/identities/byEmail'].put.parameters.map((p: any) => p.name);
    expect(put).not.toContain('format');
    const pii = doc.paths['/v2/identities/byPii'];
    expect(pii.get.description).toContain(PII_MESSAGES.place);
    expect(pii.get.description).toContain(PII_MESSAGES.names);
    // biome-ignore lint/suspicious/noExplicitAny: the document is JSON
    const required = pii.get.parameters.filter((p: any) => p.required).map((p: any) => p.name);
    expect(required).toEqual(['firstName', 'lastName']);
    const item = pii.post.requestBody.content['application/json'].schema.properties.inputs.items;
    expect(item.required).toEqual(['firstName', 'lastName']);
  });

  it("takes a batch input's extra fields from the zod schemas identities/inputs.ts exports", () => {
    const doc = openApiDocument();
    const item =
      doc.paths['/v2/identities/byEmail'].post.requestBody.content['application/json'].schema.properties.inputs.items
        .anyOf[1];
    for (const [name, schema] of Object.entries(inputExtras())) {
      expect(item.properties[name]).toEqual(schemaOf(schema));
      expect(doc.components.schemas.BatchResult.properties.results.items.properties[name]).toBeDefined();
    }
  });

  it('documents what DELETE /v2/keys/{id} returns: the id and when', () => {
    const doc = openApiDocument();
    expect(doc.components.schemas.DeletedKey.required).toEqual(['id', 'deletedAt']);
  });

  // UPDATE_OPENAPI=1 on conformance.test.ts rewrites it, with the examples of that run.
  it.skipIf(Boolean(process.env.UPDATE_OPENAPI))('is published in docs/openapi.json', () => {
    const generated = openApiDocument();
    const published = existsSync(PUBLISHED) ? JSON.parse(readFileSync(PUBLISHED, 'utf8')) : null;
    expect(
      published,
      'docs/openapi.json is out of date: run UPDATE_OPENAPI=1 npx vitest run --project server server/src/features/openapi/conformance.test.ts',
    ).toEqual(JSON.parse(JSON.stringify(generated)));
  });

  it.skipIf(!existsSync(path.join(REPO_ROOT, '.git')))(
    'keeps every published version compatible with the one before, or noted as a new major version',
    () => {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' });
      const commits = git('log', '--format=%H', '--reverse', '--', 'docs/openapi.json').split('\n').filter(Boolean);
      const versions = commits.map((c) => JSON.parse(git('show', `${c}:docs/openapi.json`)));
      if (existsSync(PUBLISHED)) versions.push(JSON.parse(readFileSync(PUBLISHED, 'utf8')));
      for (let i = 1; i < versions.length; i++) {
        expect(compatibilityProblems(versions[i - 1], versions[i], notes())).toEqual([]);
      }
    },
  );
});

describe('OpenAPI compatibility', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the test edits the JSON freely
  const base = () => structuredClone(openApiDocument()) as Record<string, any>;

  it('allows additions', () => {
    const next = base();
    next.paths['/v2/identities/byEmail'].get.parameters.push({ name: 'extra', in: 'query', required: false });
    next.paths['/v2/new'] = { get: { responses: {} } };
    next.components.schemas.ApiKey.properties.more = { type: 'string' };
    expect(breakingChanges(base(), next)).toEqual([]);
  });

  it('finds removals and new requirements', () => {
    const next = base();
    delete next.paths['/v2/identities/byMd5'].put;
    next.paths['/v2/identities/byEmail'].get.parameters = next.paths['/v2/identities/byEmail'].get.parameters.filter(
      (p: { name: string }) => p.name !== 'template',
    );
    next.paths['/v2/identities/byPii'].get.parameters.find((p: { name: string }) => p.name === 'zip').required = true;
    next.paths['/v2/keys'].post.requestBody.content['application/json'].schema.required = ['name', 'expiresAt'];
    delete next.components.schemas.LookupResult.properties.requestId;
    delete next.components.securitySchemes.session;
    expect(breakingChanges(base(), next).sort()).toEqual(
      [
        'PUT /v2/identities/byMd5 removed',
        'GET /v2/identities/byEmail: parameter query:template removed',
        'GET /v2/identities/byPii: parameter query:zip now required',
        'POST /v2/keys: request body property expiresAt now required',
        ...LOOKUP_ENDPOINT_NAMES.map((e) => `GET /v2/identities/${e} 200: property requestId removed`),
        'schema LookupResult: property requestId removed',
        'security scheme session removed',
      ].sort(),
    );
  });

  it('allows a breaking change only with a new major version noted in docs/api-changes.md', () => {
    const next = base();
    delete next.paths['/v2/identities/byMd5'].put;
    expect(compatibilityProblems(base(), next, '')).toHaveLength(2);
    next.info.version = '3.0.0';
    expect(compatibilityProblems(base(), next, '')).toHaveLength(2);
    expect(compatibilityProblems(base(), next, '# API changes\n\n## 3.0.0\n\nPUT byMd5 removed.\n')).toEqual([]);
  });
});
