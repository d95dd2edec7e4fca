/**
 * Issue 28 finding 15: every error the server sends has the project's body ({ error, code, requestId }, the id
 * also in X-Request-Id) and the headers of its class, Retry-After on a 503, including the ones Fastify and Node
 * would write themselves: the 503 to a request that arrives while the server drains, and Node's 431 to headers too
 * large (or 400 to a request it cannot read), met before any request exists. Real sockets to a listening server.
 */
import { ERROR_CODES } from '@tessera/common/errors';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../test/harness';
import { parseResponses, type RawResponse, rawConnection } from '../test/raw-http';
import { CLIENT_ERROR_MESSAGES } from './client-error';
import { DRAIN_RETRY_AFTER_SECONDS, DRAINING, registerErrorHandler } from './error-handler';
import { Unavailable } from './errors';

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.app.close());

/** The project's error body, its request id the one in X-Request-Id, as JSON. */
function expectShaped(res: RawResponse, code: string, error?: string) {
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(res.body);
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'requestId']);
  expect(ERROR_CODES).toContain(body.code);
  expect(body.code).toBe(code);
  expect(body.requestId).toBe(res.headers['x-request-id']);
  expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  if (error) expect(body.error).toBe(error);
}

describe("Node's parser errors", () => {
  it('431: 20 KB of headers get our body, a request id, and the connection closed', async () => {
    const { socket, closed } = rawConnection(port);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    const [res, ...more] = parseResponses(await closed);
    expect(more).toEqual([]);
    expect(res!.status).toBe(431);
    expect(res!.headers.connection).toBe('close');
    expectShaped(res!, 'bad_request', CLIENT_ERROR_MESSAGES[431]);
  });

  it('400: a request line that is not HTTP gets our body too', async () => {
    const { socket, closed } = rawConnection(port);
    socket.write('HELLO there\r\n\r\n');
    const [res] = parseResponses(await closed);
    expect(res!.status).toBe(400);
    expectShaped(res!, 'bad_request', CLIENT_ERROR_MESSAGES[400]);
  });

  it('a server that still answers a normal request on a new connection after both', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});

describe('errors a plugin sends without a body', () => {
  it('a plain GET of the socket route (404 from @fastify/websocket) gets our body', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/ws?url=%2F`);
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body).toEqual({ error: 'Not Found', code: 'not_found', requestId: res.headers.get('x-request-id') });
  });

  it('a 503 without Retry-After (Unavailable, no database fault) gets one', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/away', async () => {
      throw new Unavailable();
    });
    app.get('/bare', async (_request, reply) => reply.code(503).send());
    for (const url of ['/away', '/bare']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after'], url).toBe('3');
      expect(res.json(), url).toMatchObject({ code: 'unavailable', requestId: expect.any(String) });
    }
    await app.close();
  });
});

describe('the drain', () => {
  it('answers a request that arrives while the server drains 503 with our body, Retry-After and Connection: close', async () => {
    const draining = await buildTestApp();
    await draining.app.listen({ port: 0, host: '127.0.0.1' });
    const { port: own } = draining.app.server.address() as { port: number };
    const { socket, closed } = rawConnection(own);
    // A request in flight (its body half sent) keeps the drain waiting; the next one on its connection comes after.
    const body = JSON.stringify({ email: 'nobody@tessera.test', password: 'Wrong-pass1!' });
    const routed = new Promise((resolve) => draining.app.server.once('request', resolve));
    socket.write(
      'POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `X-Requested-With: XMLHttpRequest\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await routed;
    const drained = draining.app.close();
    await vi.waitFor(() => expect(draining.app.server.listening).toBe(false)); // the drain has begun
    socket.write(`${body.slice(5)}GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const [first, second, ...more] = parseResponses(await closed);
    await drained;
    expect(first!.status).toBe(401); // in flight before the drain: answered as ever
    expect(more).toEqual([]);
    expect(second!.status).toBe(503);
    expect(second!.headers['retry-after']).toBe(String(DRAIN_RETRY_AFTER_SECONDS));
    expect(second!.headers.connection).toBe('close');
    expectShaped(second!, 'unavailable', DRAINING);
  });
});
