/**
 * A request asking to upgrade to anything but a WebSocket (HTTP/2 over cleartext, `Upgrade: h2c`, as Java's
 * HttpClient and curl --http2 send to an http:// address) is answered over HTTP/1.1 as if it had not asked
 * (RFC 9110 §7.8: a server may ignore Upgrade), not refused.
 */

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/harness';

let t: TestApp;
let port = 0;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.app.close());

/** Sends raw request bytes and reads what comes back until the server ends or a short time passes. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // Written without ending our side, as a real client does; each request's 'Connection: close' ends it.
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      out += chunk;
    });
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('Upgrade requests other than WebSocket', () => {
  it('answers an h2c upgrade of GET /healthz over HTTP/1.1', async () => {
    const reply = await raw(
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings, close\r\n' +
        'Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n',
    );
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(reply).toContain('"status"');
  });

  it('reads the body of an upgrade-asking POST, and serves the next request on the same connection', async () => {
    const body = JSON.stringify({ name: '', email: 'not an address', message: '' });
    const reply = await raw(
      `POST /v2/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n` +
        `HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nContent-Type: application/json\r\nX-Requested-With: XMLHttpRequest\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    const statuses = reply.match(/HTTP\/1\.1 \d{3}/g);
    expect(statuses).toEqual(['HTTP/1.1 400', 'HTTP/1.1 200']);
    // The 400 is about the fields sent: the body was read, not lost with the upgrade.
    expect(reply).toContain('email');
  });
});
