/**
 * /v2/openapi.json: served to anyone, covering every lookup endpoint and key management; published as
 * docs/openapi.json (UPDATE_OPENAPI=1 rewrites it, refusing a breaking change without a noted major version); and
 * every published version in git history compatible with the one before it, or noted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LOOKUP_ENDPOINT_NAMES } from '@tessera/common/lookups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import { buildTestApp, type TestApp } from '../../test/harness';
import { breakingChanges, compatibilityProblems } from './compat';
import { openApiDocument } from './document';

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
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['apiKey', 'session']);
    expect(doc.components.schemas.LookupRecord.properties.emails).toBeDefined();
  });

  it('is published in docs/openapi.json (UPDATE_OPENAPI=1 rewrites it)', () => {
    const generated = openApiDocument();
    const published = existsSync(PUBLISHED) ? JSON.parse(readFileSync(PUBLISHED, 'utf8')) : null;
    if (process.env.UPDATE_OPENAPI) {
      if (published) expect(compatibilityProblems(published, generated, notes())).toEqual([]);
      writeFileSync(PUBLISHED, `${JSON.stringify(generated, null, 2)}\n`);
      return;
    }
    expect(published, 'docs/openapi.json is out of date: run UPDATE_OPENAPI=1 npm run test:unit').toEqual(generated);
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
