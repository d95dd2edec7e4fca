/**
 * The counters' way through a Redis outage (decision 0050). No call waits on Redis for long: a command is refused
 * at once while the connection is down (no offline queue) and gives up after COMMAND_TIMEOUT_MS on a connection
 * that stopped answering; and after a failure a process stops asking Redis for PAUSE_MS, counting in itself
 * instead. An in-process count stands for every server process of the machine (`processes`), so each limit then
 * holds at one process's share of it; a limit with less than one call per process answers 503 with Retry-After.
 */
import cluster from 'node:cluster';
import { Redis, ReplyError } from 'ioredis';
import { AppError } from '../../http/errors';
import { inSpan } from '../../observability/tracing';
import { within } from '../../time-limit';

export const COMMAND_TIMEOUT_MS = 500;
export const PAUSE_MS = 5_000;

/**
 * Reconnecting after 50 ms, 100 ms, ... at most 2 s apart (ioredis 5's rule; 6 waits up to 5 s with jitter): the
 * counters and the fan-out are back within 2 s of Redis (decision 0050).
 */
export const reconnectDelay = (attempt: number): number => Math.min(attempt * 50, 2_000);

/** A connection for counters: every call answered or refused within COMMAND_TIMEOUT_MS. */
export function counterRedis(url: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: reconnectDelay,
  });
  redis.on('error', () => {}); // reconnects by itself; calls report failures
  return redis;
}

/** How long opening the counters waits for Redis before going on without it. */
export const CONNECT_WAIT_MS = 1_000;

/**
 * Connects, waiting at most CONNECT_WAIT_MS: the first calls find Redis answering (without the wait they found the
 * connection still opening, and counted alone for a whole pause), and a process still starts while Redis is away
 * (its counters are its own until Redis answers; ioredis keeps trying) rather than failing to start.
 */
export async function connectBriefly(redis: Redis, waitMs = CONNECT_WAIT_MS): Promise<void> {
  await within(redis.connect(), waitMs, 'Redis').catch(() => {});
}

/** Quits cleanly when connected; otherwise stops reconnecting. */
export async function closeCounterRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}

export interface Breaker {
  /**
   * `shared()` unless Redis failed within the last pause; `local()` when Redis cannot be reached (and the pause
   * begins). An answer of Redis's own (a command refused, a script's error) is a fault of ours: thrown, not hidden.
   */
  run<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T>;
}

/** Redis's own answers that it cannot serve now (loading, a replica, failing over, busy, full): an outage too. */
const UNAVAILABLE_REPLY = /^(LOADING|READONLY|MASTERDOWN|BUSY|OOM|TRYAGAIN|CLUSTERDOWN)\b/;

/** What the counters tell of Redis's going away: once per pause, not once per call. */
export type OnTrip = (error: unknown, pauseMs: number) => void;

export function breaker(pauseMs = PAUSE_MS, now: () => number = Date.now, onTrip?: OnTrip): Breaker {
  let pausedUntil = 0;
  return {
    async run(shared, local) {
      if (now() < pausedUntil) return local();
      try {
        return await inSpan('redis counters', { 'db.system.name': 'redis' }, shared);
      } catch (error) {
        if (error instanceof ReplyError && !UNAVAILABLE_REPLY.test((error as Error).message)) throw error;
        pausedUntil = now() + pauseMs;
        onTrip?.(error, pauseMs);
        return local();
      }
    },
  };
}

/** How a process's counters are shared: among how many server processes of the machine, and where trips are told. */
export interface CounterOptions {
  /** A cluster worker's WEB_CONCURRENCY (decision 0043), otherwise 1. */
  processes?: number;
  onTrip?: OnTrip;
}

/** How many server processes of this machine share the limits, given WEB_CONCURRENCY. */
export function serverProcesses(webConcurrency: number): number {
  return cluster.isWorker ? webConcurrency : 1;
}

export const COUNTERS_AWAY = 'This is unavailable for a few seconds. Please try again shortly.';

/** 503 for a limit whose share is below one call per process while the counters are not shared. */
export class CountersAway extends AppError {
  constructor() {
    super(503, 'unavailable', COUNTERS_AWAY, undefined, { 'retry-after': String(PAUSE_MS / 1000) });
  }
}
