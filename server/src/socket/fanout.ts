/**
 * Carries pushes to every server process. In-process by default; with REDIS_URL, through one Redis pub/sub
 * channel of the deployment's namespace that every process (the publisher included) listens on, so each message
 * is delivered exactly once per process whichever process published it, and never to another deployment.
 */
import type { User } from '@tessera/common/entities';
import type { Role } from '@tessera/common/roles';
import { Redis } from 'ioredis';
import { reconnectDelay } from '../features/throttle/outage';
import { type RedisPlace, redisName } from './redis-namespace';

export type FanoutMessage =
  /** `minRank`: only connections whose user has at least that rank receive it (checked per connection). */
  | { kind: 'push'; channel: string; payload: Record<string, unknown>; minRank?: Role }
  | { kind: 'endSession'; sessionId: number }
  | { kind: 'rotateSession'; from: number; to: number; user: User }
  /** An API key was changed or revoked: every process forgets what it cached of it. */
  | { kind: 'keyChanged'; keyId: string }
  /** A user's role, standing or record types changed: every process forgets the keys of theirs it cached. */
  | { kind: 'userChanged'; userId: number }
  /** An organization's contracts changed: every process reads its standing afresh. */
  | { kind: 'contractChanged'; organizationId: number }
  /** The version browsers are told changed (a deployment of the serving environment): every page hears it. */
  | { kind: 'version'; version: string };

export interface Fanout {
  readonly kind: 'memory' | 'redis';
  publish(message: FanoutMessage): Promise<void>;
  onMessage(handler: (message: FanoutMessage) => void): void;
  close(): Promise<void>;
}

export function memoryFanout(): Fanout {
  const handlers: ((m: FanoutMessage) => void)[] = [];
  return {
    kind: 'memory',
    async publish(message) {
      // Deliver on a later tick, as Redis would: publishers never re-enter the hub synchronously.
      const copy = structuredClone(message);
      queueMicrotask(() => {
        for (const h of handlers) h(copy);
      });
    },
    onMessage: (handler) => void handlers.push(handler),
    async close() {},
  };
}

export async function redisFanout(place: RedisPlace): Promise<Fanout> {
  const channel = redisName(place, 'fanout');
  const options = {
    maxRetriesPerRequest: 2,
    enableAutoPipelining: true,
    lazyConnect: true,
    retryStrategy: reconnectDelay,
  };
  // A publish never waits on a Redis that is away: refused at once while disconnected, given up after 500 ms.
  const pub = new Redis(place.url, { ...options, enableOfflineQueue: false, commandTimeout: 500 });
  const sub = new Redis(place.url, options);
  const handlers: ((m: FanoutMessage) => void)[] = [];
  for (const client of [pub, sub]) client.on('error', () => {}); // reconnects by itself; publish calls report failures
  await Promise.all([pub.connect(), sub.connect()]);
  await sub.subscribe(channel);
  sub.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    let message: FanoutMessage;
    try {
      message = JSON.parse(text) as FanoutMessage;
    } catch {
      return;
    }
    for (const h of handlers) h(message);
  });
  return {
    kind: 'redis',
    async publish(message) {
      try {
        await pub.publish(channel, JSON.stringify(message));
      } catch {
        // Redis away (decision 0050): the change is saved; this process's own sockets still hear of it, the other
        // processes' pages catch up on their next fetch. A push is never worth failing the request that made it.
        // A publish that timed out on a connected client may still have gone out, and come back here by Redis.
        if (pub.status === 'ready') return;
        const copy = structuredClone(message);
        setImmediate(() => {
          for (const h of handlers) h(copy);
        });
      }
    },
    onMessage: (handler) => void handlers.push(handler),
    async close() {
      await Promise.allSettled([sub.quit(), pub.quit()]);
    },
  };
}
