/**
 * Upgrades other than WebSocket. Node hands every request carrying `Upgrade` to the server's 'upgrade' listeners,
 * and @fastify/websocket answers any that is not a WebSocket handshake with 400. Java's HttpClient and curl --http2
 * ask an http:// server to switch to HTTP/2 (`Upgrade: h2c`) on their first request; RFC 9110 §7.8 lets a server
 * ignore that and answer over HTTP/1.1, which is what integrators expect. Such a request is written back onto its
 * socket without the upgrade headers, body bytes already read after it, and the socket handed to the HTTP server
 * again as a new connection, so it is parsed and routed like any request (a body included), with keep-alive.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

const UPGRADE_HEADERS = new Set(['upgrade', 'http2-settings']);

const isWebSocket = (request: IncomingMessage) => request.headers.upgrade?.toLowerCase() === 'websocket';

/** The request's head as it came, less what asked for the upgrade. */
function plainHead(request: IncomingMessage): Buffer {
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    let value = raw[i + 1]!;
    const lower = name.toLowerCase();
    if (UPGRADE_HEADERS.has(lower)) continue;
    if (lower === 'connection') {
      value = value
        .split(',')
        .map((token) => token.trim())
        .filter((token) => token !== '' && !UPGRADE_HEADERS.has(token.toLowerCase()))
        .join(', ');
      if (value === '') continue;
    }
    lines.push(`${name}: ${value}`);
  }
  // Node reads header values as latin1, so they go back as the same bytes.
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** Lets only WebSocket handshakes reach the 'upgrade' listeners registered so far; the rest are served plainly. */
export function serveNonWebSocketUpgrades(server: Server): void {
  const listeners = server.listeners('upgrade') as ((req: IncomingMessage, socket: Duplex, head: Buffer) => void)[];
  server.removeAllListeners('upgrade');
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (isWebSocket(request)) {
      for (const listener of listeners) listener.call(server, request, socket, head);
      return;
    }
    socket.unshift(Buffer.concat([plainHead(request), head]));
    server.emit('connection', socket);
  });
}
