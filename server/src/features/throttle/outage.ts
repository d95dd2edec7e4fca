/**
 * The counters' way through a Redis outage (decision 0050). No call waits on Redis for long: a command is refused
 * at once while the connection is down (no offline queue) and gives up after COMMAND_TIMEOUT_MS on a connection
 * that stopped answering; and after a failure a process stops asking Redis for PAUSE_MS, counting in itself
 * instead. An in-process count stands for every server process of the machine (`processes`), so each limit then
 * holds at one process's share of it; a limit with less than one call per process answers 503 with Retry-After.
 */
import cluster from 'node:cluster';
import { Redis } from 'ioredis';
import { loadConfig } from '../../config';
import { AppError } from '../../http/errors';

export const COMMAND_TIMEOUT_MS = 500;
export const PAUSE_MS = 5_000;

/** A connection for counters: every call answered or refused within COMMAND_TIMEOUT_MS. */
export function counterRedis(url: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
  });
  redis.on('error', () => {}); // reconnects by itself; calls report failures
  return redis;
}

/** Quits cleanly when connected; otherwise stops reconnecting. */
export async function closeCounterRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}

export interface Breaker {
  /** `shared()` unless Redis failed within the last pause; `local()` when it fails (and the pause begins). */
  run<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T>;
}

export function breaker(pauseMs = PAUSE_MS, now: () => number = Date.now): Breaker {
  let pausedUntil = 0;
  return {
    async run(shared, local) {
      if (now() < pausedUntil) return local();
      try {
        return await shared();
      } catch {
        pausedUntil = now() + pauseMs;
        return local();
      }
    },
  };
}

/**
 * How many server processes of this machine share the limits: a cluster worker's WEB_CONCURRENCY (decision 0043),
 * otherwise this one process.
 */
export function serverProcesses(): number {
  return cluster.isWorker ? loadConfig().webConcurrency : 1;
}

export const COUNTERS_AWAY = 'This is unavailable for a few seconds. Please try again shortly.';

/** 503 for a limit whose share is below one call per process while the counters are not shared. */
export class CountersAway extends AppError {
  constructor() {
    super(503, 'unavailable', COUNTERS_AWAY, undefined, { 'retry-after': String(PAUSE_MS / 1000) });
  }
}
