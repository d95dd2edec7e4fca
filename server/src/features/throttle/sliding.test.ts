/** The sliding window: the previous window's calls weigh in as much as it still overlaps the last minute. */
import { describe, expect, it } from 'vitest';
import { memorySlidingLimiter } from './sliding';

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
