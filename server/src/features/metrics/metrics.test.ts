/**
 * /metrics (issue 30, item 2): behind METRICS_TOKEN, Prometheus text whose counters move by exactly the calls made;
 * in a cluster, one scrape answers for every worker. Counts are compared before and after (the registry is the
 * process's, shared by the test files of a worker).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import { accessLinesOf, requestOnce } from '../../test/access-lines';
import { consoleClient } from '../../test/console-client';
import { scratchDatabase } from '../../test/databases';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { freePort, runChild } from '../../test/process';
import { scratchDir } from '../../test/scratch-dir';
import { load, person } from '../identities/test-people';
import { testRedis } from '../throttle/test-redis';
import { METRICS_OFF, METRICS_TOKEN_WRONG } from './register';

const TOKEN = `metrics-${randomUUID()}`;
const databaseUrl = inject('databaseUrl');

/** A sample's value in Prometheus text, 0 when absent: `name{labels}` exactly as written. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

let t: TestApp;
let cookie: string;
const api = consoleClient(() => t.app);
const found = person();
beforeAll(async () => {
  t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
  const org = await makeOrganization(t.database);
  await makeContract(t.database, org.id);
  const user = await makeUser(t.database, 'user', org.id);
  cookie = await signIn(t.app, user.email);
  await load(t.database, found);
});
afterAll(() => t.app.close());

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
};

describe('/metrics', () => {
  it('asks for the token: 401 without it or with another, never the console page', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect([res.statusCode, res.json().error]).toEqual([401, METRICS_TOKEN_WRONG]);
    }
  });

  it('is off (404) without METRICS_TOKEN', async () => {
    const off = await buildTestApp();
    const res = await off.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect([res.statusCode, res.json().error]).toEqual([404, METRICS_OFF]);
    await off.app.close();
  });

  it('counts requests by route and status class, lookups by endpoint and match, usage written', async () => {
    const before = await scrape();
    const email = found.emails[0]!.address;
    for (let i = 0; i < 3; i++) {
      expect((await api.get(`/v2/identities/byEmail?email=${encodeURIComponent(email)}`, cookie)).statusCode).toBe(200);
    }
    const none = await api.get('/v2/identities/byEmail?email=nobody%40metrics.example', cookie);
    expect(none.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v2/no-such-thing' })).statusCode).toBe(404);
    const after = await scrape();

    const moved = (series: string) => sample(after, series) - sample(before, series);
    const route = 'method="GET",route="/v2/identities/byEmail",status_class="2xx"';
    expect(moved(`tessera_http_requests_total{${route}}`)).toBe(4);
    expect(moved(`tessera_http_request_duration_seconds_count{${route}}`)).toBe(4);
    expect(moved(`tessera_http_request_duration_seconds_bucket{le="+Inf",${route}}`)).toBe(4);
    expect(after).toContain(`tessera_http_request_duration_seconds_bucket{le="0.005",${route}}`);
    expect(moved('tessera_http_requests_total{method="GET",route="unmatched",status_class="4xx"}')).toBe(1);
    expect(moved('tessera_lookup_calls_total{endpoint="byEmail",status="200"}')).toBe(4);
    expect(moved('tessera_lookup_inputs_total{endpoint="byEmail",matched="true"}')).toBe(3);
    expect(moved('tessera_lookup_inputs_total{endpoint="byEmail",matched="false"}')).toBe(1);
    expect(moved('tessera_usage_calls_written_total')).toBe(4);
    expect(moved('tessera_usage_write_seconds_count{outcome="written"}')).toBeGreaterThanOrEqual(1);
    // Read at the scrape: the usage not yet rolled up, the process's own state.
    expect(after).toMatch(/^tessera_usage_aggregator_lag_seconds \d+(\.\d+)?(e[-+]\d+)?$/m);
    for (const name of [
      'tessera_template_sandbox_queued',
      'tessera_socket_connections',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
    ]) {
      expect(after).toMatch(new RegExp(`^${name} `, 'm'));
    }
    expect(after).not.toMatch(/^tessera_redis_up/m); // no Redis configured: absent, not 0
    // Nothing personal in any label or value.
    expect(after).not.toContain(email);
    expect(after).not.toContain('metrics.example');
  });
});

describe('/metrics and Redis', () => {
  it('says Redis is up while it answers the counters, and down once a counter call found it gone', async () => {
    const redis = await testRedis();
    const app = (await buildTestApp({ env: { METRICS_TOKEN: TOKEN, REDIS_URL: redis.url } })).app;
    try {
      const read = async () =>
        sample(
          (await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body,
          'tessera_redis_up{counters="redis"}',
        );
      expect(await read()).toBe(1);
      await redis.kill();
      // A sign-in attempt goes through the throttle's counters: Redis is not there, the process counts alone.
      const attempt = await app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { 'x-requested-with': 'XMLHttpRequest' },
        payload: { email: 'nobody@metrics.example', password: 'Wrong-passw0rd!' },
      });
      expect(attempt.statusCode).toBe(401);
      expect(await read()).toBe(0);
    } finally {
      await app.close();
      await redis.kill();
    }
  });
});

describe('the Grafana dashboard (deploy/grafana-dashboard.json)', () => {
  it('charts only metrics the server exports', async () => {
    const dashboard = JSON.parse(readFileSync(path.join(REPO_ROOT, 'deploy/grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const text = await scrape();
    const exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    const charted = dashboard.panels.flatMap((p) =>
      p.targets.flatMap((target) =>
        [...target.expr.matchAll(/\b(?:tessera|nodejs|process)_[a-z0-9_]+/g)].map((m) => m[0]),
      ),
    );
    expect(charted.length).toBeGreaterThan(15);
    const missing = charted.filter((name) => !exported.has(name.replace(/_(bucket|count|sum)$/, '')));
    expect(missing).toEqual([]);
  });
});

describe('/metrics of a cluster', () => {
  it('on PostgreSQL: one scrape adds up every worker’s counts', { timeout: 180_000 }, async (ctx) => {
    ctx.skip(!databaseUrl, 'needs PostgreSQL: runs in the server-postgres project when TEST_DATABASE_URL is set');
    const scratch = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'metrics');
    const port = await freePort();
    const child = runChild(['server/src/main.ts'], {
      DATABASE_URL: scratch.url,
      DATA_DIR: scratchDir('data'),
      PORT: String(port),
      WEB_CONCURRENCY: '2',
      LOG_LEVEL: 'info',
      SEED_IDENTITIES: '0',
      METRICS_TOKEN: TOKEN,
    });
    try {
      await child.waitFor('Tessera console:');
      // Requests each on a new connection, handed to the workers in turn, until both have served some.
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await requestOnce(port, 'GET', '/livez')).id);
      const pids = new Set((await accessLinesOf(child, ids)).map((l) => l.pid));
      expect(pids.size).toBe(2);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(sample(text, 'tessera_http_requests_total{method="GET",route="/livez",status_class="2xx"}')).toBe(20);
      // Present in the machine's answer (0 here: nothing was metered, so this does not tell max from sum).
      expect(sample(text, 'tessera_usage_aggregator_lag_seconds')).toBe(0);
      expect(text).toMatch(/^# TYPE tessera_usage_aggregator_lag_seconds gauge$/m);
    } finally {
      child.proc.kill('SIGTERM');
      await child.exited;
      await scratch.drop();
    }
  });
});
