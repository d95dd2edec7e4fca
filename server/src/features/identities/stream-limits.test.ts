/**
 * Streamed PUTs are capped and let go of (issue 28, finding 14): at most STREAM_LIMITS.perKey at once for a key (or
 * console user), perOrganization for an organization, 429 with Retry-After past them; a stream whose client stops
 * sending and reading is ended after STREAM_IDLE_SECONDS, and its place freed.
 */
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { STREAM_LIMIT_MESSAGES, STREAM_LIMITS } from '@tessera/common/lookups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, CONSOLE_HEADERS, makeCustomer, signIn, type TestApp } from '../../test/harness';

let t: TestApp;
let cookie: string;
let base: URL;
beforeAll(async () => {
  t = await buildTestApp({ env: { STREAM_IDLE_SECONDS: '2' } });
  cookie = await signIn(t.app, (await makeCustomer(t.database)).email);
  base = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(() => t.app.close());

const places = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from lookup_streams where expires_at > now()'))[0]!
    .n;

/** A PUT whose body stays open until `end` is called. */
function openStream() {
  const body = new PassThrough();
  body.write('email\r\n');
  const reply = t.app.inject({
    method: 'PUT',
    url: '/v2/identities/byEmail',
    headers: { ...CONSOLE_HEADERS, cookie, 'content-type': 'text/csv' },
    payload: body,
  });
  return {
    reply,
    end: () => {
      body.end('nobody@stream.example\r\n');
    },
  };
}

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the condition never held');
}

describe('streamed PUT limits', () => {
  it('runs at most perKey streams of one caller at once: the next is 429 with Retry-After', async () => {
    const before = await places();
    const open = Array.from({ length: STREAM_LIMITS.perKey }, () => openStream());
    await until(async () => (await places()) === before + STREAM_LIMITS.perKey);
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/v2/identities/byEmail',
      headers: { ...CONSOLE_HEADERS, cookie, 'content-type': 'text/csv' },
      payload: 'email\r\nnobody@stream.example\r\n',
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.json().error).toBe(STREAM_LIMIT_MESSAGES.key(STREAM_LIMITS.perKey));
    // One ends: its place is free for the next.
    open[0]!.end();
    expect((await open[0]!.reply).statusCode).toBe(200);
    await until(async () => (await places()) === before + STREAM_LIMITS.perKey - 1);
    const next = openStream();
    next.end();
    expect((await next.reply).statusCode).toBe(200);
    for (const o of open.slice(1)) o.end();
    for (const o of open.slice(1)) expect((await o.reply).statusCode).toBe(200);
    await until(async () => (await places()) === before);
  });

  /** A raw socket to the server, for what a client library would not do (stall, hang up at once). */
  const rawStreamedPut = async () => {
    const socket = net.connect(Number(base.port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    return socket;
  };
  /** The head of a chunked streamed PUT, with no body yet. */
  const streamedPutHead = () =>
    [
      'PUT /v2/identities/byEmail HTTP/1.1',
      `Host: 127.0.0.1:${base.port}`,
      `Cookie: ${cookie}`,
      'X-Requested-With: XMLHttpRequest',
      'Content-Type: text/csv',
      'Transfer-Encoding: chunked',
      '',
      '',
    ].join('\r\n');

  it('ends a stream whose client stops sending and reading, and frees its place', async () => {
    const before = await places();
    const socket = await rawStreamedPut();
    socket.write(streamedPutHead());
    const first = 'email\r\n';
    socket.write(`${first.length.toString(16)}\r\n${first}\r\n`);
    await until(async () => (await places()) === before + 1);
    // Nothing more is sent: the server closes the connection by itself, and the place is freed.
    await new Promise((resolve) => socket.once('close', resolve));
    await until(async () => (await places()) === before);
  });

  it('frees the place of a client that hangs up at once, while its place is being taken', async () => {
    const before = await places();
    for (let i = 0; i < STREAM_LIMITS.perKey + 2; i++) {
      const socket = await rawStreamedPut();
      socket.end(streamedPutHead());
      socket.destroy();
    }
    // Every place comes back (the hang-ups may still be taking theirs when this starts): the key streams again...
    await until(async () => {
      const next = openStream();
      next.end();
      return (await next.reply).statusCode === 200 && (await places()) === before;
    });
  });
});
