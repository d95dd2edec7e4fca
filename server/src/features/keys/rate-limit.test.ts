/** Rate limits of the lookup API: per key and per organization, 429 with Retry-After and RateLimit headers. */
import { RATE_MESSAGES } from '@tessera/common/lookups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisFanout } from '../../socket/fanout';
import { deploymentNamespace, type RedisPlace } from '../../socket/redis-namespace';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, signIn, type TestApp, testDatabase } from '../../test/harness';
import { redisSlidingLimiter } from '../throttle/sliding';

let t: TestApp;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

async function keyOf(app: TestApp['app'], cookie: string, rateLimit: number) {
  const res = await consoleClient(() => app).post('/v2/keys', cookie, { name: 'limited', rateLimit });
  const key = Object.values(res.json().keys)[0] as { id: string; secret: string };
  return `Bearer ${key.id}${key.secret}`;
}
const call = (app: TestApp['app'], authorization: string) =>
  app.inject({ method: 'GET', url: '/v2/identities/byId?id=1', headers: { authorization } });

describe('lookup rate limits', () => {
  it('holds a key to its requests a minute, telling what is left, and meters no refused call', async () => {
    const customer = await makeCustomer(t.database);
    const bearer = await keyOf(t.app, await signIn(t.app, customer.email), 2);
    const first = await call(t.app, bearer);
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({
      'ratelimit-limit': '2',
      'ratelimit-remaining': '1',
      'ratelimit-policy': '"key";q=2;w=60',
    });
    expect(first.headers.ratelimit).toMatch(/^"key";r=1;t=\d+$/);
    expect((await call(t.app, bearer)).headers['ratelimit-remaining']).toBe('0');
    const refused = await call(t.app, bearer);
    expect(refused.statusCode).toBe(429);
    const retry = Number(refused.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(120);
    expect(refused.json().error).toBe(RATE_MESSAGES.key(2, retry));
    // Reset tells when a retry is served, the same as Retry-After.
    expect(refused.headers['ratelimit-reset']).toBe(String(retry));
    expect(refused.headers.ratelimit).toBe(`"key";r=0;t=${retry}`);
    const [row] = await t.database.query('select 1 from usage where request_id = $1', [
      refused.headers['x-request-id'],
    ]);
    expect(row).toBeUndefined();
    // Another key of the same user has its own count.
    const other = await keyOf(t.app, await signIn(t.app, customer.email), 2);
    expect((await call(t.app, other)).statusCode).toBe(200);
  });

  it('holds an organization to its contract’s limit across its keys and sessions', async () => {
    const customer = await makeCustomer(t.database, 'user', { contract: { rateLimit: 3 } });
    const cookie = await signIn(t.app, customer.email);
    const a = await keyOf(t.app, cookie, 100);
    const b = await keyOf(t.app, cookie, 100);
    expect((await call(t.app, a)).statusCode).toBe(200);
    expect((await call(t.app, b)).statusCode).toBe(200);
    expect((await api.get('/v2/identities/byId?id=1', cookie)).headers['ratelimit-remaining']).toBe('0');
    const refused = await call(t.app, a);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(RATE_MESSAGES.organization(3, Number(refused.headers['retry-after'])));
    expect(refused.headers['ratelimit-policy']).toBe('"key";q=100;w=60, "organization";q=3;w=60');
    expect(refused.headers.ratelimit).toBe(`"organization";r=0;t=${refused.headers['retry-after']}`);
  });
});

const redisUrl = process.env.REDIS_URL;
describe.skipIf(!redisUrl)('rate limits across processes (Redis)', () => {
  it('counts a key’s calls on every process together', async () => {
    const place: RedisPlace = { url: redisUrl!, namespace: await deploymentNamespace(await testDatabase()) };
    const rates = await Promise.all([0, 1].map(() => redisSlidingLimiter(place)));
    const apps = await Promise.all(
      rates.map(async (r) => buildTestApp({ fanout: await redisFanout(place), rates: r })),
    );
    try {
      const [a, b] = apps as [TestApp, TestApp];
      const customer = await makeCustomer(a.database);
      const bearer = await keyOf(a.app, await signIn(a.app, customer.email), 2);
      expect((await call(a.app, bearer)).statusCode).toBe(200);
      expect((await call(b.app, bearer)).statusCode).toBe(200);
      expect((await call(a.app, bearer)).statusCode).toBe(429);
      expect((await call(b.app, bearer)).statusCode).toBe(429);
    } finally {
      for (const x of apps) await x.app.close();
      for (const x of apps) await x.fanout.close();
      for (const r of rates) await r.close();
    }
  });
});
