/**
 * Watches what the console's socket (/ws) receives and sends in a page, through the browser's own WebSocket events:
 * a test can wait until the server has subscribed the page before acting on another tab, instead of sleeping.
 */
import { selfChannel } from '@tessera/common/socket';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export interface SocketWatch {
  /** Every server-to-browser message so far, parsed, across reconnects. */
  received: unknown[];
  /** Every browser-to-server message so far, parsed, across reconnects. */
  sent: unknown[];
  /** Waits until the page's socket is subscribed to the user's self channel (it hears pushes about them). */
  subscribedToSelf(userId: number): Promise<void>;
}

/** Call before the page opens the console, so its first socket is seen too. */
export function watchSocket(page: Page): SocketWatch {
  const received: unknown[] = [];
  const sent: unknown[] = [];
  const parse = (payload: string | Buffer) => {
    try {
      return JSON.parse(String(payload)) as unknown;
    } catch {
      return payload;
    }
  };
  page.on('websocket', (ws) => {
    if (!new URL(ws.url()).pathname.endsWith('/ws')) return;
    ws.on('framereceived', ({ payload }) => received.push(parse(payload)));
    ws.on('framesent', ({ payload }) => sent.push(parse(payload)));
  });
  return {
    received,
    sent,
    async subscribedToSelf(userId) {
      const wanted = JSON.stringify(['subscribed', selfChannel(userId)]);
      await expect.poll(() => received.some((m) => JSON.stringify(m) === wanted), { timeout: 15_000 }).toBe(true);
    },
  };
}
