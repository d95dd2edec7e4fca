/** The sliding window: the previous window's calls weigh in as much as it still overlaps the last minute. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySlidingLimiter, redisSlidingLimiter, type SlidingLimiter } from './sliding';
import { type TestRedis, testRedis } from './test-redis';

/** Limits and paces of calls spread over a few windows, the clock moved by hand. */
const PACES = [
  [3, 7_000],
  [10, 2_500],
  [100, 300],
  [5, 9_000],
  [3, 26_000],
  [7, 13_333],
] as const;

/**
 * The issue 31 case and its kin: every reply's reset names the second from which a call past the `remaining` left
 * is served. On a 200 with none left, a call at that second is served; with some left, those and one more are.
 */
async function resetsHold(make: (now: () => number) => Promise<SlidingLimiter>): Promise<number> {
  let checked = 0;
  for (const [limit, pace] of PACES) {
    let now = 6_000_000 + 26_000;
    const limiter = await make(() => now);
    const hit = () => limiter.hit(`k:${limit}:${pace}`, limit, 60_000);
    try {
      for (let i = 0; i < 60 && checked < 1_000; i++, now += pace) {
        const decision = await hit();
        if (!decision.allowed) continue;
        expect(decision.reset, `limit ${limit}: a reset is at least a second`).toBeGreaterThanOrEqual(1);
        const { remaining, reset } = decision;
        for (let r = 0; r < remaining; r++) expect((await hit()).allowed).toBe(true);
        expect((await hit()).allowed, `limit ${limit}, past the ${remaining} left`).toBe(false);
        now += reset * 1000;
        expect((await hit()).allowed, `limit ${limit}, pace ${pace}: at the reset of a 200 (r=${remaining})`).toBe(
          true,
        );
        checked++;
      }
    } finally {
      await limiter.close();
    }
  }
  return checked;
}

describe('sliding-window limiter', () => {
  it('allows the limit in a window, then frees room as the previous window slides out', async () => {
    let now = 600_000; // the start of a window
    const limiter = memorySlidingLimiter(() => now);
    const hit = () => limiter.hit('k', 3, 60_000);
    expect((await hit()).remaining).toBe(2);
    expect((await hit()).remaining).toBe(1);
    expect((await hit()).remaining).toBe(0);
    now += 30_000;
    const refused = await hit();
    // All three are in this window: room only once a third of the next one has passed (30 s + 20 s).
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 50 });

    now += 30_000; // the next window begins: 3 × 100 % of the previous still count
    expect((await hit()).allowed).toBe(false);
    now += 20_000; // 3 × 2/3 = 2, so one more fits
    expect(await hit()).toMatchObject({ allowed: true, remaining: 0 });
    expect((await hit()).allowed).toBe(false);
    now += 120_000; // two windows later, nothing weighs
    expect((await hit()).remaining).toBe(2);
  });

  it('says in a refusal when a retry will be served, and it is served then', async () => {
    // Calls spread over two windows at several paces, each refusal checked against the clock it names.
    for (const [limit, pace] of [
      [3, 7_000],
      [10, 2_500],
      [100, 300],
      [5, 9_000],
    ] as const) {
      let now = 6_000_000 + pace;
      const limiter = memorySlidingLimiter(() => now);
      const hit = () => limiter.hit('k', limit, 60_000);
      let refusals = 0;
      for (let i = 0; i < 400 && refusals < 5; i++, now += pace) {
        const decision = await hit();
        if (decision.allowed) continue;
        refusals++;
        expect(decision.reset).toBe(decision.retryAfter);
        now += decision.reset * 1000;
        expect((await hit()).allowed, `limit ${limit}, at its reset`).toBe(true);
      }
      expect(refusals).toBeGreaterThan(0);
    }
  });

  it('names on a 200 the second from which a call past those left is served (issue 31)', async () => {
    let now = 600_000 + 26_000; // 26 s into a window, as in the report
    const limiter = memorySlidingLimiter(() => now);
    const hit = () => limiter.hit('k', 3, 60_000);
    await hit();
    await hit();
    const last = await hit();
    expect(last).toMatchObject({ allowed: true, remaining: 0 });
    // Not the 34 s left of this window: the three calls still weigh fully when it ends; a third of the next has to pass.
    expect(last.reset).toBe(54);
    now += 53_000;
    expect(await hit()).toMatchObject({ allowed: false, retryAfter: 1, reset: 1 });
    now += 1_000;
    expect((await hit()).allowed).toBe(true);
  });

  it('keeps its word on every 200, in process', async () => {
    expect(await resetsHold(async (now) => memorySlidingLimiter(now))).toBeGreaterThan(100);
  });

  it('counts keys apart and never counts a refused call', async () => {
    let now = 0;
    const limiter = memorySlidingLimiter(() => now);
    expect((await limiter.hit('a', 1, 1000)).allowed).toBe(true);
    for (let i = 0; i < 5; i++) expect((await limiter.hit('a', 1, 1000)).allowed).toBe(false);
    expect((await limiter.hit('b', 1, 1000)).allowed).toBe(true);
    now = 2000; // the refused calls left nothing behind
    expect((await limiter.hit('a', 1, 1000)).allowed).toBe(true);
  });
});

describe('sliding-window limiter on Redis', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await testRedis();
  });
  afterAll(() => redis?.kill());

  it('keeps its word on every 200, the script deciding', async () => {
    const place = { url: redis.url, namespace: `test-sliding-${randomUUID()}` };
    expect(await resetsHold((now) => redisSlidingLimiter(place, { now }))).toBeGreaterThan(100);
  });
});
