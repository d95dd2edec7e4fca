/**
 * Fixed-window counters for throttling (sign-in failures, pre-approval probes, reset requests). In-process by
 * default; shared by every server process through Redis when REDIS_URL is set.
 */
import { Redis } from 'ioredis';

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

const PREFIX = 'tessera:throttle:';

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

export async function redisLimiter(url: string): Promise<Limiter> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: true });
  redis.on('error', () => {}); // reconnects by itself; calls report failures
  await redis.connect();
  const view = (count: number, ttlMs: number): Count => ({ count, retryAfter: Math.max(0, Math.ceil(ttlMs / 1000)) });
  return {
    async peek(key) {
      const [[, count], [, ttl]] = (await redis
        .multi()
        .get(PREFIX + key)
        .pttl(PREFIX + key)
        .exec()) as [[unknown, string | null], [unknown, number]];
      return view(Number(count ?? 0), ttl);
    },
    async hit(key, windowMs) {
      const [[, count], , [, ttl]] = (await redis
        .multi()
        .incr(PREFIX + key)
        .pexpire(PREFIX + key, windowMs, 'NX')
        .pttl(PREFIX + key)
        .exec()) as [[unknown, number], unknown, [unknown, number]];
      return view(count, ttl);
    },
    async reset(key) {
      await redis.del(PREFIX + key);
    },
    async close() {
      await redis.quit().catch(() => undefined);
    },
  };
}

export function openLimiter(redisUrl: string | null): Promise<Limiter> {
  return redisUrl ? redisLimiter(redisUrl) : Promise.resolve(memoryLimiter());
}
