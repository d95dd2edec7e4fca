/**
 * What the server processes of one cluster share when there is no Redis (decision 0043): the fan-out (pushes to
 * sockets, ended sessions, forgotten keys and standings) and the throttling and rate-limit counters. The primary
 * holds the counters in memory and relays every fan-out message to every worker, the publisher included, as the
 * Redis channel does; workers reach it over the cluster's IPC channel. With REDIS_URL workers use Redis instead, which
 * also reaches processes on other machines.
 */
import cluster, { type Worker } from 'node:cluster';
import { type Limiter, memoryLimiter } from './features/throttle/limiter';
import { CountersAway } from './features/throttle/outage';
import { memorySlidingLimiter, type SlidingLimiter } from './features/throttle/sliding';
import type { Fanout, FanoutMessage } from './socket/fanout';

const FANOUT = 'tessera:fanout';
const CALL = 'tessera:call';
const REPLY = 'tessera:reply';

/** The methods a worker may call on the primary's counters. */
const METHODS = { limiter: ['peek', 'hit', 'reset'], rates: ['hit'] } as const;
type Target = keyof typeof METHODS;

interface FanoutEnvelope {
  type: typeof FANOUT;
  message: FanoutMessage;
}
interface CallEnvelope {
  type: typeof CALL;
  id: number;
  target: Target;
  method: string;
  args: unknown[];
}
interface ReplyEnvelope {
  type: typeof REPLY;
  id: number;
  value?: unknown;
  error?: string;
}

const isEnvelope = <T extends { type: string }>(m: unknown, type: T['type']): m is T =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type;

/** In the primary: keeps the counters and relays the fan-out for every worker, present and future. */
export function relayForWorkers(): void {
  const counters: Record<Target, Limiter | SlidingLimiter> = {
    limiter: memoryLimiter(),
    rates: memorySlidingLimiter(),
  };
  const send = (worker: Worker, message: FanoutEnvelope | ReplyEnvelope) => {
    // A worker that is draining or gone misses what it would not use; the callback keeps a closed channel quiet.
    if (worker.isConnected()) worker.send(message, () => {});
  };
  cluster.on('message', (from: Worker, message: unknown) => {
    if (isEnvelope<FanoutEnvelope>(message, FANOUT)) {
      for (const worker of Object.values(cluster.workers ?? {})) if (worker) send(worker, message);
    } else if (isEnvelope<CallEnvelope>(message, CALL)) {
      const { id, target, method, args } = message;
      const allowed = (METHODS[target] as readonly string[] | undefined)?.includes(method);
      const counter = counters[target] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      Promise.resolve()
        .then(() => {
          if (!allowed) throw new Error(`no shared method ${target}.${method}`);
          return counter[method]!(...args);
        })
        .then(
          (value) => send(from, { type: REPLY, id, value }),
          (err: unknown) => send(from, { type: REPLY, id, error: err instanceof Error ? err.message : String(err) }),
        );
    }
  });
}

let nextCall = 0;
const pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
let listening = false;
const fanoutHandlers: ((message: FanoutMessage) => void)[] = [];

/** One listener per worker process for everything the primary sends. */
function listen(): void {
  if (listening) return;
  listening = true;
  process.on('message', (message: unknown) => {
    if (isEnvelope<ReplyEnvelope>(message, REPLY)) {
      const call = pending.get(message.id);
      if (!call) return;
      pending.delete(message.id);
      if (message.error !== undefined) call.reject(new Error(message.error));
      else call.resolve(message.value);
    } else if (isEnvelope<FanoutEnvelope>(message, FANOUT)) {
      for (const handler of fanoutHandlers) handler(message.message);
    }
  });
}

function toPrimary(message: FanoutEnvelope | CallEnvelope): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) {
      reject(new Error('not a cluster worker: there is no primary to share with'));
      return;
    }
    process.send(message, undefined, undefined, (err: Error | null) => (err ? reject(err) : resolve()));
  });
}

/** How long a worker waits for the primary's answer about a counter before the call fails (a 503, not a hang). */
export const CALL_TIMEOUT_MS = 5_000;

function call(target: Target, method: string, args: unknown[], timeoutMs = CALL_TIMEOUT_MS): Promise<unknown> {
  listen();
  const id = ++nextCall;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      // A 503 with Retry-After, as when Redis is away (decision 0050): the caller may try again, nothing failed.
      const away = new CountersAway();
      away.cause = new Error(`the cluster's primary did not answer ${target}.${method} within ${timeoutMs} ms`);
      reject(away);
    }, timeoutMs);
    timer.unref();
    const settle =
      <T>(f: (v: T) => void) =>
      (v: T) => {
        clearTimeout(timer);
        f(v);
      };
    pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
    toPrimary({ type: CALL, id, target, method, args }).catch((err: Error) => {
      pending.delete(id);
      settle(reject)(err);
    });
  });
}

/** In a worker: the fan-out through the primary, which hands each message to every worker once. */
export function workerFanout(): Fanout {
  listen();
  const mine: ((message: FanoutMessage) => void)[] = [];
  return {
    // Messages are delivered asynchronously and copied, to this process too, as with the in-process fan-out.
    kind: 'memory',
    publish: (message) => toPrimary({ type: FANOUT, message }),
    onMessage(handler) {
      mine.push(handler);
      fanoutHandlers.push(handler);
    },
    async close() {
      for (const handler of mine.splice(0)) fanoutHandlers.splice(fanoutHandlers.indexOf(handler), 1);
    },
  };
}

/** In a worker: the throttling counters the primary keeps for every worker. */
export function workerLimiter(): Limiter {
  return {
    peek: (key) => call('limiter', 'peek', [key]) as ReturnType<Limiter['peek']>,
    hit: (key, windowMs) => call('limiter', 'hit', [key, windowMs]) as ReturnType<Limiter['hit']>,
    reset: (key) => call('limiter', 'reset', [key]) as Promise<void>,
    async close() {}, // the counters are the primary's; they outlive any worker
  };
}

/** In a worker: the lookup rate-limit counters the primary keeps for every worker. */
export function workerRates(): SlidingLimiter {
  return {
    hit: (key, limit, windowMs) => call('rates', 'hit', [key, limit, windowMs]) as ReturnType<SlidingLimiter['hit']>,
    async close() {},
  };
}
