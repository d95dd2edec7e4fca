/**
 * RateLimit-Reset on the lookup API's replies, the limiter's clock moved by hand (issue 31): a 200 with r=0 names
 * the second from which the next call is served, and a call made then is served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, signIn, type TestApp } from '../../test/harness';
import { memorySlidingLimiter } from './sliding';

let t: TestApp;
let now = 6_000_000 + 26_000; // 26 s into a minute, as in the report
beforeAll(async () => {
  t = await buildTestApp({ rates: memorySlidingLimiter(() => now) });
});
afterAll(() => t.app.close());

async function bearerOf(rateLimit: number): Promise<string> {
  const customer = await makeCustomer(t.database);
  const res = await consoleClient(() => t.app).post('/v2/keys', await signIn(t.app, customer.email), {
    name: 'limited',
    rateLimit,
  });
  const key = Object.values(res.json().keys)[0] as { id: string; secret: string };
  return `Bearer ${key.id}${key.secret}`;
}
const call = (authorization: string) =>
  t.app.inject({ method: 'GET', url: '/v2/identities/byId?id=1', headers: { authorization } });

describe('RateLimit-Reset on a 200', () => {
  it('is honoured to the second when none are left', async () => {
    const bearer = await bearerOf(3);
    expect((await call(bearer)).statusCode).toBe(200);
    expect((await call(bearer)).statusCode).toBe(200);
    const last = await call(bearer);
    expect(last.statusCode).toBe(200);
    expect(last.headers['ratelimit-remaining']).toBe('0');
    const reset = Number(last.headers['ratelimit-reset']);
    expect(last.headers.ratelimit).toBe(`"key";r=0;t=${reset}`);
    // The three calls weigh fully as this minute ends (34 s on): a third of the next must pass too.
    expect(reset).toBe(54);
    now += (reset - 1) * 1000;
    const early = await call(bearer);
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('1');
    now += 1000;
    const atReset = await call(bearer);
    expect(atReset.statusCode).toBe(200);
  });

  it('names, with calls left, when one past them is served', async () => {
    const bearer = await bearerOf(2);
    const first = await call(bearer);
    expect(first.headers['ratelimit-remaining']).toBe('1');
    const reset = Number(first.headers['ratelimit-reset']);
    expect((await call(bearer)).headers['ratelimit-remaining']).toBe('0');
    expect((await call(bearer)).statusCode).toBe(429);
    now += reset * 1000;
    expect((await call(bearer)).statusCode).toBe(200);
  });
});
