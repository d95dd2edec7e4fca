/** Liveness and readiness (issue 30, item 5): what a balancer and a supervisor ask, and how each answer changes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { buildTestApp, type TestApp } from '../../test/harness';
import { type TestRedis, testRedis } from '../throttle/test-redis';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

describe('probes', () => {
  it('/livez: the process is up; /readyz: the database answers (no Redis configured)', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/livez' });
    expect([live.statusCode, live.json(), live.headers['cache-control']]).toEqual([200, { live: true }, 'no-store']);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ready: true, draining: false, checks: { database: 'ok', redis: 'absent' } });
  });

  it('/readyz is 503 naming the database when it does not answer', async () => {
    const database = await openDatabase({ dataDir: null });
    const app = (await buildTestApp({ database })).app;
    await database.close(); // gone, as a database that went away
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ready: false, draining: false, checks: { database: 'down', redis: 'absent' } });
    await app.close().catch(() => {});
  });

  describe('with Redis', () => {
    let redis: TestRedis;
    let withRedis: TestApp;
    beforeAll(async () => {
      redis = await testRedis();
      withRedis = await buildTestApp({ env: { REDIS_URL: redis.url } });
    });
    afterAll(async () => {
      await withRedis?.app.close();
      await redis?.kill();
    });

    it('reports Redis, but stays ready without it (every process counts alone and serves on)', async () => {
      let up = await withRedis.app.inject({ method: 'GET', url: '/readyz' });
      for (let i = 0; i < 50 && up.json().checks.redis !== 'ok'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100)); // the probe's connection opening
        up = await withRedis.app.inject({ method: 'GET', url: '/readyz' });
      }
      expect([up.statusCode, up.json().checks]).toEqual([200, { database: 'ok', redis: 'ok' }]);
      await redis.kill();
      const down = await withRedis.app.inject({ method: 'GET', url: '/readyz' });
      expect([down.statusCode, down.json()]).toEqual([
        200,
        { ready: true, draining: false, checks: { database: 'ok', redis: 'down' } },
      ]);
    });
  });

  it('once a drain begins, /readyz says so (503) while everything else is still served', async () => {
    const { app } = await buildTestApp();
    app.beginDrain();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect([ready.statusCode, ready.json()]).toEqual([
      503,
      { ready: false, draining: true, checks: { database: 'ok', redis: 'absent' } },
    ]);
    expect((await app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await app.close();
  });
});
