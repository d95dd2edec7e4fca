/** A real WebSocket client for tests: collects server messages and waits for the ones a test expects. */
import type { ServerMessage } from '@tessera/common/socket';
import WebSocket from 'ws';

export interface TestSocket {
  ws: WebSocket;
  messages: ServerMessage[];
  send(message: unknown): void;
  next(predicate: (m: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  closed: Promise<{ code: number; reason: string }>;
}

export function openSocket(
  base: string,
  options: { cookie?: string; origin?: string; query?: string } = {},
): Promise<TestSocket> {
  const url = `${base.replace(/^http/, 'ws')}/ws?${options.query ?? `url=${encodeURIComponent('http://localhost:3000/')}`}`;
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin) headers.origin = options.origin;
  const ws = new WebSocket(url, { headers });
  const messages: ServerMessage[] = [];
  const waiters: { predicate: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as ServerMessage;
    messages.push(message);
    for (const w of [...waiters]) {
      if (w.predicate(message)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused: ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        closed,
        send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
        next(predicate, timeoutMs = 5000) {
          const seen = messages.find(predicate);
          if (seen) {
            messages.splice(messages.indexOf(seen), 1);
            return Promise.resolve(seen);
          }
          return new Promise((res, rej) => {
            const timer = setTimeout(() => rej(new Error('no such message arrived')), timeoutMs);
            waiters.push({
              predicate,
              resolve: (m) => {
                clearTimeout(timer);
                messages.splice(messages.indexOf(m), 1);
                res(m);
              },
            });
          });
        },
      }),
    );
  });
}

export const isPush = (key: string) => (m: ServerMessage) => m[0] === 'push' && key in m[1];
export const isReply = (name: string, channel?: string) => (m: ServerMessage) =>
  m[0] === name && (channel === undefined || m[1] === channel || (m[1] as { channel?: string }).channel === channel);
