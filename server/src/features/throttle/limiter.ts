/**
 * Fixed-window counters for throttling (sign-in failures, pre-approval probes, reset requests). In-process by
 * default; shared by every server process through Redis when REDIS_URL is set, under the deployment's namespace.
 */
import { Redis } from 'ioredis';
import { type RedisPlace, redisName } from '../../socket/redis-namespace';

export interface Count {
  count: number;
  /** Seconds until the window starts afresh. */
  retryAfter: number;
}

export interface Limiter {
  /** The current count of a key without changing it. */
  peek(key: string): Promise<Count>;
  /** Adds one to a key, opening a window of `windowMs` if none is open. */
  hit(key: string, windowMs: number): Promise<Count>;
  /** Forgets a key (e.g. failures after a successful sign-in). */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export function memoryLimiter(now: () => number = Date.now): Limiter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const live = (key: string) => {
    const w = windows.get(key);
    if (w && w.endsAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };
  const view = (w: { count: number; endsAt: number } | undefined): Count =>
    w ? { count: w.count, retryAfter: Math.ceil((w.endsAt - now()) / 1000) } : { count: 0, retryAfter: 0 };
  return {
    async peek(key) {
      return view(live(key));
    },
    async hit(key, windowMs) {
      const w = live(key) ?? { count: 0, endsAt: now() + windowMs };
      w.count += 1;
      windows.set(key, w);
      if (windows.size > 100_000) for (const k of windows.keys()) live(k); // sweep expired windows
      return view(w);
    },
    async reset(key) {
      windows.delete(key);
    },
    async close() {
      windows.clear();
    },
  };
}

export async function redisLimiter(place: RedisPlace): Promise<Limiter> {
  const redis = new Redis(place.url, { maxRetriesPerRequest: 2, lazyConnect: true });
  const name = (key: string) => redisName(place, 'throttle', key);
  redis.on('error', () => {}); // reconnects by itself; calls report failures
  await redis.connect();
  const view = (count: number, ttlMs: number): Count => ({ count, retryAfter: Math.max(0, Math.ceil(ttlMs / 1000)) });
  return {
    async peek(key) {
      const k = name(key);
      const [[, count], [, ttl]] = (await redis.multi().get(k).pttl(k).exec()) as [
        [unknown, string | null],
        [unknown, number],
      ];
      return view(Number(count ?? 0), ttl);
    },
    async hit(key, windowMs) {
      const k = name(key);
      const [[, count], , [, ttl]] = (await redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec()) as [
        [unknown, number],
        unknown,
        [unknown, number],
      ];
      return view(count, ttl);
    },
    async reset(key) {
      await redis.del(name(key));
    },
    async close() {
      await redis.quit().catch(() => undefined);
    },
  };
}

export function openLimiter(redis: RedisPlace | null): Promise<Limiter> {
  return redis ? redisLimiter(redis) : Promise.resolve(memoryLimiter());
}
