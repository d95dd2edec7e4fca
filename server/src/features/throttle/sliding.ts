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
  /** Seconds until a call will be served again when refused (as retryAfter); otherwise until this window ends. */
  reset: number;
}

export interface SlidingLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  close(): Promise<void>;
}

/** The decision from the two windows' counts (`current` already including this call when allowed). */
export function decide(
  allowed: boolean,
  current: number,
  previous: number,
  limit: number,
  windowMs: number,
  elapsedMs: number,
): RateDecision {
  const weight = 1 - elapsedMs / windowMs;
  const estimate = previous * weight + current;
  const reset = Math.max(1, Math.ceil((windowMs - elapsedMs) / 1000));
  if (allowed) {
    return { allowed, limit, remaining: Math.max(0, Math.floor(limit - estimate)), retryAfter: 0, reset };
  }
  // When will previous * (1 - t / W) + current + 1 <= limit hold in this window? If not before it ends, then in the
  // next, where this window's calls are the previous ones: current * (1 - t' / W) + 1 <= limit.
  const left = windowMs - elapsedMs;
  const inThis =
    current + 1 <= limit && previous > 0 ? windowMs * (1 - (limit - current - 1) / previous) - elapsedMs : Infinity;
  const waitMs = inThis <= left ? inThis : left + Math.max(0, windowMs * (1 - (limit - 1) / Math.max(current, 1)));
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return { allowed, limit, remaining: 0, retryAfter, reset: retryAfter };
}

export function memorySlidingLimiter(now: () => number = Date.now): SlidingLimiter {
  const windows = new Map<string, { index: number; current: number; previous: number }>();
  return {
    async hit(key, limit, windowMs) {
      const at = now();
      const index = Math.floor(at / windowMs);
      let w = windows.get(key);
      if (!w || w.index < index - 1) w = { index, current: 0, previous: 0 };
      else if (w.index === index - 1) w = { index, current: 0, previous: w.current };
      windows.set(key, w);
      if (windows.size > 100_000) {
        for (const [k, v] of windows) if (v.index < index - 1) windows.delete(k);
      }
      const elapsed = at - index * windowMs;
      const allowed = w.previous * (1 - elapsed / windowMs) + w.current + 1 <= limit;
      if (allowed) w.current += 1;
      return decide(allowed, w.current, w.previous, limit, windowMs, elapsed);
    },
    async close() {
      windows.clear();
    },
  };
}

const SCRIPT = `local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
if previous * tonumber(ARGV[1]) + current + 1 > tonumber(ARGV[2]) then return {0, current, previous} end
current = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, current, previous}`;

export async function redisSlidingLimiter(place: RedisPlace, options: CounterOptions = {}): Promise<SlidingLimiter> {
  const redis = counterRedis(place.url);
  await connectBriefly(redis);
  const processes = options.processes ?? 1;
  redis.defineCommand('slidingHit', { numberOfKeys: 2, lua: SCRIPT });
  const client = redis as Redis & {
    slidingHit(current: string, previous: string, weight: number, limit: number, ttl: number): Promise<number[]>;
  };
  const local = memorySlidingLimiter();
  const shared = breaker(undefined, undefined, options.onTrip);
  return {
    hit: (key, limit, windowMs) =>
      shared.run(
        async () => {
          // Redis's clock would be the one truth across processes; ours are close enough at this resolution.
          const at = Date.now();
          const index = Math.floor(at / windowMs);
          const elapsed = at - index * windowMs;
          const [allowed, current, previous] = await client.slidingHit(
            redisName(place, 'rate', key, windowMs, index),
            redisName(place, 'rate', key, windowMs, index - 1),
            1 - elapsed / windowMs,
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
