/**
 * The counters while Redis is away (decision 0050), for a machine of several server processes: each process keeps
 * one process's share of every limit, and a limit with less than a call per process answers 503 with Retry-After.
 * On a redis-server of the test's own, killed once the counters are open.
 */
import { randomUUID } from 'node:crypto';
import { ReplyError } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../http/errors';
import { type Limiter, redisLimiter } from './limiter';
import { breaker, COUNTERS_AWAY, closeCounterRedis, counterRedis, PAUSE_MS } from './outage';
import { refuseWhenOver, THROTTLE_RULES, throttle } from './rules';
import { redisSlidingLimiter, type SlidingLimiter } from './sliding';
import { type TestRedis, testRedis } from './test-redis';

/** What a check answers: 'ok', or the status and Retry-After of its refusal. */
async function outcome(check: Promise<void>): Promise<string> {
  try {
    await check;
    return 'ok';
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return `${err.status} ${err.headers?.['retry-after'] ?? ''}`.trim();
  }
}

describe('counters while Redis is down', () => {
  let redis: TestRedis;
  /** Counters of a process that is one of two, and of one that is one of eight. */
  let ofTwo: Limiter;
  let ofEight: Limiter;
  let ratesOfTwo: SlidingLimiter;

  beforeAll(async () => {
    redis = await testRedis();
    const place = { url: redis.url, namespace: `test-share-${randomUUID()}` };
    [ofTwo, ofEight, ratesOfTwo] = await Promise.all([
      redisLimiter(place, { processes: 2 }),
      redisLimiter(place, { processes: 8 }),
      redisSlidingLimiter(place, { processes: 2 }),
    ]);
    await redis.kill();
  });
  afterAll(async () => {
    await Promise.all([ofTwo?.close(), ofEight?.close(), ratesOfTwo?.close()]);
    await redis?.kill();
  });

  it('keeps one process’s share of a limit, refusing past it with 429', async () => {
    const mail = (limiter: Limiter, address: string) =>
      outcome(throttle(limiter, [[`mail:address:${address}`, THROTTLE_RULES.mailPerAddress]]));
    // 5 an hour per address; one of two processes takes 2 of them.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await mail(ofTwo, 'a@tessera.test'));
    expect(answers).toEqual(['ok', 'ok', expect.stringMatching(/^429 \d+$/)]);
    // Where the share is below one call (5 among 8 processes), it says to come back once Redis is asked again.
    expect(await mail(ofEight, 'b@tessera.test')).toBe(`503 ${PAUSE_MS / 1000}`);
  });

  it('refuses sign-in attempts once one process’s share of failures is used', async () => {
    const rule = THROTTLE_RULES.loginFailuresPerAccount; // 100 an hour: 50 for one of two processes
    const key = `login:account:${randomUUID()}`;
    for (let i = 0; i < rule.limit / 2 - 1; i++) await ofTwo.hit(key, rule.windowMs);
    expect(await outcome(refuseWhenOver(ofTwo, [[key, rule]]))).toBe('ok');
    await ofTwo.hit(key, rule.windowMs);
    expect(await outcome(refuseWhenOver(ofTwo, [[key, rule]]))).toMatch(/^429 \d+$/);
    await ofTwo.reset(key); // a successful sign-in forgives them here as well
    expect(await outcome(refuseWhenOver(ofTwo, [[key, rule]]))).toBe('ok');
  });

  it('holds a lookup key to its share of its rate, and answers 503 below one call', async () => {
    const allowed = [];
    for (let i = 0; i < 3; i++) allowed.push((await ratesOfTwo.hit('key:k', 5, 60_000)).allowed);
    expect(allowed).toEqual([true, true, false]);
    await expect(ratesOfTwo.hit('key:one-a-minute', 1, 60_000)).rejects.toMatchObject({
      status: 503,
      message: COUNTERS_AWAY,
      headers: { 'retry-after': String(PAUSE_MS / 1000) },
    });
  });
});

describe('the breaker', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await testRedis();
  });
  afterAll(() => redis?.kill());

  it('throws an answer of Redis’s own (a fault of ours) instead of counting in the process', async () => {
    const client = counterRedis(redis.url);
    await client.connect();
    const trips: unknown[] = [];
    const local = vi.fn(async () => 'local');
    const b = breaker(PAUSE_MS, Date.now, (error) => trips.push(error));
    await expect(b.run(() => client.call('no-such-command') as Promise<string>, local)).rejects.toThrow(
      /unknown command/i,
    );
    expect(local).not.toHaveBeenCalled();
    expect(trips).toEqual([]);
    await closeCounterRedis(client);
  });

  it('tells of an outage once per pause, and asks Redis again after it', async () => {
    let now = 1_000_000;
    const trips: number[] = [];
    const b = breaker(
      PAUSE_MS,
      () => now,
      (_error, pauseMs) => trips.push(pauseMs),
    );
    const away = vi.fn(async (): Promise<string> => {
      throw new Error('Connection is closed.');
    });
    const local = async () => 'local';
    for (let i = 0; i < 5; i++) expect(await b.run(away, local)).toBe('local');
    expect(away).toHaveBeenCalledTimes(1);
    expect(trips).toEqual([PAUSE_MS]);
    now += PAUSE_MS;
    expect(await b.run(away, local)).toBe('local');
    expect(away).toHaveBeenCalledTimes(2);
    expect(trips).toEqual([PAUSE_MS, PAUSE_MS]);
    expect(await b.run(async () => 'shared', local)).toBe('local'); // still paused
    now += PAUSE_MS;
    expect(await b.run(async () => 'shared', local)).toBe('shared');
  });

  it('counts the first calls after opening in Redis, not alone while the connection is still opening', async () => {
    const live = await testRedis();
    const trips: unknown[] = [];
    const options = { processes: 2, onTrip: (error: unknown) => trips.push(error) };
    const place = { url: live.url, namespace: `test-open-${randomUUID()}` };
    const [limiter, rates] = await Promise.all([redisLimiter(place, options), redisSlidingLimiter(place, options)]);
    try {
      // Alone, a count stands for both processes (2) and says so; shared, it is the count in Redis (1).
      expect(await limiter.hit('k', 60_000)).toEqual({ count: 1, retryAfter: 60 });
      expect((await rates.hit('key:k', 10, 60_000)).allowed).toBe(true);
      expect(trips).toEqual([]);
    } finally {
      await Promise.all([limiter.close(), rates.close()]);
      await live.kill();
    }
  });

  it('lets a process start while Redis is away, counting in itself until Redis answers', async () => {
    const gone = await testRedis();
    await gone.kill();
    const trips: unknown[] = [];
    const limiter = await redisLimiter(
      { url: gone.url, namespace: `test-start-${randomUUID()}` },
      { processes: 1, onTrip: (error) => trips.push(error) },
    );
    expect((await limiter.hit('k', 60_000)).count).toBe(1);
    expect((await limiter.hit('k', 60_000)).count).toBe(2);
    expect(trips).toHaveLength(1);
    await limiter.close();
  });
});

describe('the breaker and Redis’s own refusals', () => {
  it('counts in the process while Redis says it cannot serve now (LOADING, READONLY, ...)', async () => {
    const trips: unknown[] = [];
    const b = breaker(PAUSE_MS, Date.now, (error) => trips.push(error));
    const loading = async (): Promise<string> => {
      throw new ReplyError('LOADING Redis is loading the dataset in memory');
    };
    expect(await b.run(loading, async () => 'local')).toBe('local');
    expect(trips).toHaveLength(1);
  });
});
