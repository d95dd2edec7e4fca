/**
 * Fixed-window counters for throttling (sign-in failures, pre-approval probes, reset requests). In-process by
 * default; shared by every server process through Redis when REDIS_URL is set, under the deployment's namespace.
 * While Redis is away, in-process again, each count standing for every process of the machine (decision 0050).
 */
import { type RedisPlace, redisName } from '../../socket/redis-namespace';
import { breaker, type CounterOptions, closeCounterRedis, connectBriefly, counterRedis } from './outage';

export interface Count {
  count: number;
  /** Seconds until the window starts afresh. */
  retryAfter: number;
  /**
   * Set while Redis is away: the count was made in this process alone and multiplied by this many processes (the
   * machine's count if calls spread evenly), so a limit holds at one process's share.
   */
  processes?: number;
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

export async function redisLimiter(place: RedisPlace, options: CounterOptions = {}): Promise<Limiter> {
  const redis = counterRedis(place.url);
  await connectBriefly(redis);
  const processes = options.processes ?? 1;
  const name = (key: string) => redisName(place, 'throttle', key);
  const view = (count: number, ttlMs: number): Count => ({ count, retryAfter: Math.max(0, Math.ceil(ttlMs / 1000)) });
  const local = memoryLimiter();
  const shared = breaker(undefined, undefined, options.onTrip);
  const alone = (c: Count): Count => ({ ...c, count: c.count * processes, processes });
  return {
    peek: (key) =>
      shared.run(
        async () => {
          const k = name(key);
          const [[, count], [, ttl]] = (await redis.multi().get(k).pttl(k).exec()) as [
            [unknown, string | null],
            [unknown, number],
          ];
          return view(Number(count ?? 0), ttl);
        },
        async () => alone(await local.peek(key)),
      ),
    hit: (key, windowMs) =>
      shared.run(
        async () => {
          const k = name(key);
          const [[, count], , [, ttl]] = (await redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec()) as [
            [unknown, number],
            unknown,
            [unknown, number],
          ];
          return view(count, ttl);
        },
        async () => alone(await local.hit(key, windowMs)),
      ),
    async reset(key) {
      await local.reset(key); // what an earlier outage counted here is forgiven too
      await shared.run(
        async () => void (await redis.del(name(key))),
        async () => {},
      );
    },
    async close() {
      await local.close();
      await closeCounterRedis(redis);
    },
  };
}

export function openLimiter(redis: RedisPlace | null, options: CounterOptions = {}): Promise<Limiter> {
  return redis ? redisLimiter(redis, options) : Promise.resolve(memoryLimiter());
}
