/**
 * A webhook receiver for browser tests: a real HTTP server (node:http) on 127.0.0.1 at a free port, keeping every
 * request it gets and answering each path as the test sets (`answers`; 200 `ok` for any other). `close` ends open
 * connections and stops it.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as sent, for the signature. */
  body: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:{port}` */
  base: string;
  received: ReceivedWebhook[];
  /** What to answer a path (such as `/failing`) from now on; 200 `ok` for paths not named. */
  answers: Map<string, { status: number; body: string }>;
  /** The requests to one path. */
  to(path: string): ReceivedWebhook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    base: '',
    received: [],
    answers: new Map(),
    to: (path) => receiver.received.filter((r) => r.path === path),
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      receiver.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = receiver.answers.get(path) ?? { status: 200, body: 'ok' };
      res.writeHead(answer.status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
