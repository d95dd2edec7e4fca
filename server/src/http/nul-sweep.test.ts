/**
 * Issue 28 finding 10: a NUL byte in any field of any route is a 4xx in the project's error shape, never a 500.
 * The sweep walks every route the app registers (seen through Fastify's onRoute hook) and every operation of its
 * OpenAPI document, and sends, as a root signed in with the password confirmed again (step-up), one request per
 * string field of the JSON body, per query parameter and per path parameter, with a NUL in that field and real
 * values elsewhere (fixtures made first, so a NUL reaches as deep as a real value would). It runs on a database
 * of its own: a probe that were wrongly accepted must not change what other test files see.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES } from '@tessera/common/errors';
import { MESSAGES } from '@tessera/common/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { memoryLimiter } from '../features/throttle/limiter';
import { consoleClient } from '../test/console-client';
import { type ScratchDatabase, scratchDatabase } from '../test/databases';
import { buildTestApp, CONSOLE_HEADERS, type TestApp } from '../test/harness';
import { NUL, requiredOf, variants, withNul } from '../test/nul-probes';
import { type CatalogRoute, catalog, collectRoutes, type Json } from '../test/route-catalog';
import { makeSweepFixtures, type SweepFixtures } from './nul-sweep-fixtures';

/** Parts of routes the sweep sends no NUL to, and why (`*` stands for a lookup endpoint's name). */
const SKIPPED: Record<string, string> = {
  'PUT /v2/identities/*: body':
    'a CSV body: a row holding a NUL gets its own error row and the stream reads on (storable-text.test.ts)',
  'PUT /v1/identities/*: body': 'as PUT /v2/identities/*',
  'POST /v2/jobs: body':
    'a CSV body read as PUT /v2/identities/* reads it (bulk-jobs/api.test.ts: a NUL row is an error row)',
  'POST /v2/uploads: body': 'a CSV body kept as a job would keep it (its rows are answered as the PUT answers them)',
  'POST /v2/suppressions/import: body': 'a CSV body: a line holding a NUL is reported in the import reply',
  'POST /v2/users/:id/image: body': 'a multipart picture: bytes of an image, not text (images tests)',
};

/**
 * Probes answered 2xx by design. A lookup input's `metadata` is the caller's own JSON, echoed unchanged in the
 * result and never stored as text (decision 0025: "JSON is never altered"); JSON carries a NUL as \u0000.
 */
const ACCEPTED = [/^POST \/v[12]\/identities\/by\w+ body\.inputs\.0\.metadata\.\w+$/];

let t: TestApp;
let scratch: ScratchDatabase | null = null;
let releasesDir: string;
let routes: CatalogRoute[];
let fx: SweepFixtures;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  const base = process.env.TEST_DATABASE_URL;
  scratch = process.env.TEST_ENGINE === 'postgres' && base ? await scratchDatabase(base, 'nulsweep') : null;
  const database = await openDatabase({ url: scratch?.url ?? null, dataDir: null, poolSize: 4 });
  await migrate(database);
  releasesDir = mkdtempSync(path.join(tmpdir(), 'tessera-sweep-releases-'));
  const collected = await collectRoutes(() =>
    buildTestApp({ database, limiter: memoryLimiter(), env: { RELEASES_DIR: releasesDir } }),
  );
  t = collected.built;
  const document = (await t.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json() as Json;
  routes = catalog(collected.routes, document, [['/v1/identities/', '/v2/identities/']]);
  const head = execFileSync('git', ['-C', REPO_ROOT, 'rev-parse', 'HEAD']).toString().trim();
  fx = await makeSweepFixtures(t, head);
}, 180_000);
afterAll(async () => {
  await t.app.close();
  await t.database.close();
  await scratch?.drop();
  rmSync(releasesDir, { recursive: true, force: true });
});

interface Probe {
  what: string;
  url: string;
  payload?: unknown;
}

const skipped = (route: CatalogRoute, part: string) =>
  SKIPPED[`${route.method} ${route.url.replace(/\/by\w+$/, '/*')}: ${part}`] ??
  SKIPPED[`${route.method} ${route.url}: ${part}`];

/** One request per path parameter, query parameter and string field of the body, each with a NUL in it. */
function probesOf(route: CatalogRoute): Probe[] {
  const key = `${route.method} ${route.url}`;
  const given = fx.given(key);
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const params = Object.fromEntries(names.map((n) => [n, String(given.params?.[n] ?? fx.hint(n) ?? 1)]));
  const query = route.schemas.querystring ?? {};
  const queryBase = { ...requiredOf(query, fx.hint), ...given.query };
  const body = skipped(route, 'body') ? undefined : route.schemas.body;
  const payload = body ? (given.body ?? requiredOf(body, fx.hint)) : undefined;
  const url = (p: Record<string, string>, q: Record<string, unknown>) => {
    const where = route.url.replace(/:(\w+)/g, (_, n: string) => encodeURIComponent(p[n]!));
    const search = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return search ? `${where}?${search}` : where;
  };
  const out: Probe[] = [];
  for (const n of names) {
    out.push({ what: `${key} params.${n}`, url: url({ ...params, [n]: withNul(params[n]) }, queryBase), payload });
  }
  for (const [n, schema] of Object.entries((query.properties ?? {}) as Json)) {
    const value = queryBase[n] ?? (schema as Json).default ?? fx.hint(n) ?? 'sweep';
    out.push({ what: `${key} querystring.${n}`, url: url(params, { ...queryBase, [n]: withNul(value) }), payload });
  }
  for (const v of body ? variants(body, '', fx.hint, given.body) : []) {
    out.push({ what: `${key} body.${v.at.join('.')}`, url: url(params, queryBase), payload: v.value });
  }
  return out;
}

/** The probe sent as the signed-in root, from the console (its headers and cookie). */
const send = (route: CatalogRoute, probe: Probe) =>
  t.app.inject({
    method: route.method as 'GET',
    url: probe.url,
    headers: { ...CONSOLE_HEADERS, cookie: fx.cookie },
    ...(probe.payload === undefined ? {} : { payload: probe.payload as object }),
  });

describe('a NUL byte in any field of any route', () => {
  it('is answered 4xx with { error, code, requestId } on every route of the app and of its OpenAPI document', async () => {
    const wrong: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const probe of probesOf(route)) {
        const res = await send(route, probe);
        sent++;
        if (ACCEPTED.some((pattern) => pattern.test(probe.what)) && res.statusCode < 300) continue;
        const body = String(res.headers['content-type'] ?? '').includes('json') ? (res.json() as Json) : {};
        const shaped =
          typeof body.error === 'string' &&
          ERROR_CODES.includes(body.code) &&
          body.requestId === res.headers['x-request-id'];
        if (res.statusCode < 400 || res.statusCode >= 500 || !shaped) {
          wrong.push(`${probe.what}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // Every route was reached: the document's operations, the console's routes, and no fewer fields than today.
    expect(routes.filter((r) => r.documented).length).toBeGreaterThanOrEqual(40);
    expect(sent).toBeGreaterThan(450);
  });

  it('skips only bodies that are not JSON, each named with its reason', () => {
    const keys = (route: CatalogRoute) => [
      `${route.method} ${route.url}: body`,
      `${route.method} ${route.url.replace(/\/by\w+$/, '/*')}: body`,
    ];
    const notJson = routes.filter((r) => r.bodyType !== undefined);
    expect(notJson.length).toBeGreaterThan(0);
    const listed = (route: CatalogRoute) => keys(route).some((k) => k in SKIPPED);
    expect(notJson.filter((r) => !listed(r)).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    // And each entry names a route that really has no JSON body.
    const named = (key: string) => routes.some((r) => keys(r).includes(key) && !r.schemas.body);
    expect(Object.keys(SKIPPED).filter((key) => !named(key))).toEqual([]);
  });

  it.each([
    ['PUT /v2/releases/:id', 'notes'],
    ['POST /v2/releases', 'notes'],
    ['POST /v2/segments', 'name'],
    ['PUT /v2/segments/:id', 'name'],
    ['DELETE /v2/suppressions/:id', 'reason'],
    ['POST /v2/query', 'sql'],
    ['POST /v2/query/csv', 'sql'],
    ['POST /v2/query', 'cluster'],
    ['POST /v2/saved-queries', 'name'],
    ['PUT /v2/saved-queries/:id', 'sql'],
    ['GET /v2/usage/calls', 'keyId'],
    ['GET /v2/usage/totals', 'after'],
    ['GET /v2/audit/lookups', 'value'],
  ])('%s refuses a NUL in %s with 400 naming it', async (key, field) => {
    const route = routes.find((r) => `${r.method} ${r.url}` === key)!;
    const probe = probesOf(route).find((p) => p.what.endsWith(`.${field}`))!;
    const res = await send(route, probe);
    expect(res.statusCode, res.body).toBe(400);
    const where = route.method === 'GET' ? 'querystring' : 'body';
    expect(res.json().fields).toEqual([{ path: `${where}.${field}`, message: MESSAGES.text }]);
  });

  it('leaves what the probes aimed at as it was', async () => {
    const saved = (await api.get('/v2/saved-queries', fx.cookie)).json().savedQueries;
    expect(saved.map((q: { name: string }) => q.name)).toEqual(['Sweep']);
    expect(JSON.stringify(saved)).not.toContain(NUL);
  });
});
