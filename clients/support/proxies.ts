/**
 * Two small proxies on loopback in front of the really started server, for the client suites (issue 31):
 *
 * - a forward HTTP proxy that records what it carried: absolute-form requests (an http server) are forwarded with
 *   their bodies streamed both ways, CONNECT opens a tunnel. `GET /__seen` asked of the proxy itself answers the
 *   list as JSON, so a client's own suite (Python, Java) can check that its calls went through it;
 * - a TCP relay to the server that breaks the next new connection once armed (reads the request, then resets the
 *   connection: no reply) and relays every other, for the retry of a call that got no reply. It is armed by
 *   `arm()`, or by `POST {controlUrl}/arm` from a child process; `GET {controlUrl}/count` tells the connections
 *   accepted and broken.
 */

import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, createServer as createTcpServer, type Server, type Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  /** The absolute URL asked for, or `host:port` for a CONNECT. */
  url: string;
  idempotencyKey?: string;
}

export interface RecordingProxy {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const listen = (server: Server | ReturnType<typeof createServer>) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

const closeServer = (server: Server | ReturnType<typeof createServer>, sockets: Set<Socket>) =>
  new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  });

export async function startRecordingProxy(): Promise<RecordingProxy> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (req.url === '/__seen') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
      return;
    }
    if (!req.url?.startsWith('http://')) {
      res.writeHead(400).end('a proxy request names an absolute http:// URL');
      return;
    }
    const key = req.headers['idempotency-key'];
    seen.push({ method: req.method ?? '', url: req.url, idempotencyKey: typeof key === 'string' ? key : undefined });
    const target = new URL(req.url);
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers,
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client, head) => {
    seen.push({ method: 'CONNECT', url: req.url ?? '' });
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, seen, close: () => closeServer(server, sockets) };
}

export interface BreakingRelay {
  url: string;
  controlUrl: string;
  /** Connections accepted, and broken. */
  connections: number;
  broken: number;
  /** Breaks the next new connection. */
  arm(): void;
  close(): Promise<void>;
}

/** Relays TCP to `target` (http://host:port); once armed, the next connection is reset when its request arrives. */
export async function startBreakingRelay(target: string): Promise<BreakingRelay> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let armed = false;
  const relay: BreakingRelay = {
    url: '',
    controlUrl: '',
    connections: 0,
    broken: 0,
    arm: () => {
      armed = true;
    },
    close: async () => undefined,
  };
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  };
  const server = createTcpServer((client) => {
    track(client);
    relay.connections += 1;
    if (armed) {
      armed = false;
      relay.broken += 1;
      client.once('data', () => client.resetAndDestroy());
      return;
    }
    const upstream = connect(Number(port), hostname);
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const control = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/arm') relay.arm();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ connections: relay.connections, broken: relay.broken }));
  });
  const controlSockets = new Set<Socket>();
  control.on('connection', (s) => {
    controlSockets.add(s);
    s.on('close', () => controlSockets.delete(s));
  });
  relay.url = `http://127.0.0.1:${await listen(server)}`;
  relay.controlUrl = `http://127.0.0.1:${await listen(control)}`;
  relay.close = async () => {
    await closeServer(control, controlSockets);
    await closeServer(server, sockets);
  };
  return relay;
}
