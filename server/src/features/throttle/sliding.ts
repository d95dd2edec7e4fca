/**
 * Sliding-window rate limits for the lookup API (per key, per organization). The window is estimated from two fixed
 * windows: the current one's count plus the previous one's, weighted by how much of it still overlaps the last
 * `windowMs`. A refused call is not counted. In-process by default; with REDIS_URL one atomic script per check, so a
 * limit holds across every server process (of this deployment: the counters live under its namespace). While Redis
 * is away, in-process at one process's share of each limit (decision 0050).
 */
import type { Redis } from 'ioredis';
import { type RedisPlace, redisName } from '../../socket/redis-namespace';
import { breaker, type CounterOptions, CountersAway, closeCounterRedis, connectBriefly, counterRedis } from './outage';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Calls left in the window after this one. */
  remaining: number;
  /** Seconds until the window has room again for one more (0 when allowed). */
  retryAfter: number;
  /**
   * The same on every reply: seconds until a call past the `remaining` left is served (were those spent at once). On
   * a refusal, as retryAfter; on a 200 with none left, when the next call is served.
   */
  reset: number;
}

export interface SlidingLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  close(): Promise<void>;
}

/**
 * Whether one more call fits: previous × (1 − elapsed / W) + current + 1 ≤ limit, multiplied out by W so that whole
 * milliseconds compare exactly (the script on Redis makes the same comparison), and a reset's second is never lost
 * to rounding.
 */
export function fits(current: number, previous: number, limit: number, windowMs: number, elapsedMs: number): boolean {
  return previous * (windowMs - elapsedMs) + (current + 1) * windowMs <= limit * windowMs;
}

/** The least a / b rounded up, for whole a and b > 0. */
const ceilDiv = (a: number, b: number) => Math.ceil(a / b);

/**
 * Milliseconds from `elapsedMs` until one more call fits after `calls` in this window and `previous` in the one
 * before: in this window once enough of the previous one has slid out, else in the next, where this window's calls
 * are the previous ones.
 */
function msUntilRoom(calls: number, previous: number, limit: number, windowMs: number, elapsedMs: number): number {
  if (calls + 1 <= limit) {
    if (previous === 0) return 0;
    const at = Math.max(elapsedMs, ceilDiv(windowMs * (previous + calls + 1 - limit), previous));
    if (at < windowMs) return at - elapsedMs;
  }
  const inNext = Math.max(0, ceilDiv(windowMs * (calls + 1 - limit), Math.max(calls, 1)));
  return windowMs - elapsedMs + inNext;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The decision from the two windows' counts (`current` already including this call when allowed). */
export function decide(
  allowed: boolean,
  current: number,
  previous: number,
  limit: number,
  windowMs: number,
  elapsedMs: number,
): RateDecision {
  if (allowed) {
    // limit − estimate, multiplied out by W as in fits(): the calls that still fit now.
    const room = limit * windowMs - previous * (windowMs - elapsedMs) - current * windowMs;
    const remaining = Math.max(0, Math.floor(room / windowMs));
    const reset = seconds(msUntilRoom(current + remaining, previous, limit, windowMs, elapsedMs));
    return { allowed, limit, remaining, retryAfter: 0, reset };
  }
  const retryAfter = seconds(msUntilRoom(current, previous, limit, windowMs, elapsedMs));
  return { allowed, limit, remaining: 0, retryAfter, reset: retryAfter };
}

export function memorySlidingLimiter(now: () => number = Date.now): SlidingLimiter {
  const windows = new Map<string, { index: number; current: number; previous: number }>();
  return {
    async hit(key, limit, windowMs) {
      const at = Math.floor(now());
      const index = Math.floor(at / windowMs);
      let w = windows.get(key);
      if (!w || w.index < index - 1) w = { index, current: 0, previous: 0 };
      else if (w.index === index - 1) w = { index, current: 0, previous: w.current };
      windows.set(key, w);
      if (windows.size > 100_000) {
        for (const [k, v] of windows) if (v.index < index - 1) windows.delete(k);
      }
      const elapsed = at - index * windowMs;
      const allowed = fits(w.current, w.previous, limit, windowMs, elapsed);
      if (allowed) w.current += 1;
      return decide(allowed, w.current, w.previous, limit, windowMs, elapsed);
    },
    async close() {
      windows.clear();
    },
  };
}

/** fits() in Lua: ARGV elapsed ms, window ms, limit, time to live ms. Whole numbers, exact in Lua's doubles. */
const SCRIPT = `local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local elapsed, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if previous * (window - elapsed) + (current + 1) * window > limit * window then return {0, current, previous} end
current = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, current, previous}`;

export interface SlidingOptions extends CounterOptions {
  /** The clock (tests move it by hand). */
  now?: () => number;
}

export async function redisSlidingLimiter(place: RedisPlace, options: SlidingOptions = {}): Promise<SlidingLimiter> {
  const redis = counterRedis(place.url);
  await connectBriefly(redis);
  const processes = options.processes ?? 1;
  redis.defineCommand('slidingHit', { numberOfKeys: 2, lua: SCRIPT });
  const client = redis as Redis & {
    slidingHit(
      current: string,
      previous: string,
      elapsed: number,
      window: number,
      limit: number,
      ttl: number,
    ): Promise<number[]>;
  };
  const now = options.now ?? Date.now;
  const local = memorySlidingLimiter(now);
  const shared = breaker(undefined, undefined, options.onTrip);
  return {
    hit: (key, limit, windowMs) =>
      shared.run(
        async () => {
          // Redis's clock would be the one truth across processes; ours are close enough at this resolution.
          const at = Math.floor(now());
          const index = Math.floor(at / windowMs);
          const elapsed = at - index * windowMs;
          const [allowed, current, previous] = await client.slidingHit(
            redisName(place, 'rate', key, windowMs, index),
            redisName(place, 'rate', key, windowMs, index - 1),
            elapsed,
            windowMs,
            limit,
            windowMs * 2,
          );
          return decide(allowed === 1, current!, previous!, limit, windowMs, elapsed);
        },
        async () => {
          const share = Math.floor(limit / processes);
          if (share < 1) throw new CountersAway();
          // Told as the whole limit with what is left of this process's share: never more than will be served.
          return { ...(await local.hit(key, share, windowMs)), limit };
        },
      ),
    async close() {
      await local.close();
      await closeCounterRedis(redis);
    },
  };
}

export function openSlidingLimiter(redis: RedisPlace | null, options: CounterOptions = {}): Promise<SlidingLimiter> {
  return redis ? redisSlidingLimiter(redis, options) : Promise.resolve(memorySlidingLimiter());
}
