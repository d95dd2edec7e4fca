/**
 * Carries pushes to every server process. In-process by default; with REDIS_URL, through one Redis pub/sub
 * channel that every process (the publisher included) listens on, so each message is delivered exactly once
 * per process whichever process published it.
 */
import type { User } from '@tessera/common/entities';
import { Redis } from 'ioredis';

export type FanoutMessage =
  | { kind: 'push'; channel: string; payload: Record<string, unknown> }
  | { kind: 'endSession'; sessionId: number }
  | { kind: 'rotateSession'; from: number; to: number; user: User }
  /** An API key was changed or revoked: every process forgets what it cached of it. */
  | { kind: 'keyChanged'; keyId: string }
  /** A user's role, standing or record types changed: every process forgets the keys of theirs it cached. */
  | { kind: 'userChanged'; userId: number }
  /** An organization's contracts changed: every process reads its standing afresh. */
  | { kind: 'contractChanged'; organizationId: number };

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

const CHANNEL = 'tessera:fanout';

export async function redisFanout(url: string): Promise<Fanout> {
  const options = { maxRetriesPerRequest: 2, enableAutoPipelining: true, lazyConnect: true };
  const pub = new Redis(url, options);
  const sub = new Redis(url, options);
  const handlers: ((m: FanoutMessage) => void)[] = [];
  for (const client of [pub, sub]) client.on('error', () => {}); // reconnects by itself; publish calls report failures
  await Promise.all([pub.connect(), sub.connect()]);
  await sub.subscribe(CHANNEL);
  sub.on('message', (_channel: string, text: string) => {
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
      await pub.publish(CHANNEL, JSON.stringify(message));
    },
    onMessage: (handler) => void handlers.push(handler),
    async close() {
      await Promise.allSettled([sub.quit(), pub.quit()]);
    },
  };
}
