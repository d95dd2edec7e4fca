/** The access line (issue 30, item 4): one per request, naming who and what, never a secret or personal data. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load, person } from '../features/identities/test-people';
import { consoleClient } from '../test/console-client';
import { buildTestApp, CONSOLE_HEADERS, makeCustomer, makeUser, signIn, type TestApp } from '../test/harness';
import { ACCESS_LINE } from './access-log';

let t: TestApp;
let cookie: string;
let user: { id: number };
let organizationId: number;
const api = consoleClient(() => t.app);
const p = person();
const email = p.emails[0]!.address;
beforeAll(async () => {
  t = await buildTestApp();
  const customer = await makeCustomer(t.database);
  user = customer;
  organizationId = customer.organizationId!;
  cookie = await signIn(t.app, customer.email);
  await load(t.database, p);
});
afterAll(() => t.app.close());

interface Line {
  msg: string;
  level: number;
  reqId: string;
  [field: string]: unknown;
}
const linesOf = (requestId: string): Line[] =>
  t.logs.map((l) => JSON.parse(l) as Line).filter((l) => l.reqId === requestId);

describe('the access line', () => {
  it('is one line per request: route, status, time, bytes, the key, its user and organization, the client', async () => {
    const made = await api.post('/v2/keys', cookie, { name: 'access line key' });
    const [key] = Object.values(made.json().keys) as { id: string; secret: string }[];
    const res = await t.app.inject({
      method: 'GET',
      url: `/v2/identities/byEmail?email=${encodeURIComponent(email)}`,
      headers: { authorization: `Bearer ${key!.id}${key!.secret}` },
      remoteAddress: '203.0.113.9',
    });
    expect(res.statusCode).toBe(200);
    const lines = linesOf(String(res.headers['x-request-id']));
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      msg: ACCESS_LINE,
      level: 30,
      method: 'GET',
      route: '/v2/identities/byEmail',
      url: '/v2/identities/byEmail?email=[redacted]',
      status: 200,
      bytes: Number(res.headers['content-length']),
      userId: user.id,
      organizationId,
      keyId: key!.id,
      ip: '203.0.113.9',
    });
    expect(typeof line!.ms).toBe('number');
    const text = JSON.stringify(line);
    expect(text).not.toContain(key!.secret);
    for (const part of [email, p.lastName, p.firstName]) expect(text).not.toContain(part);
  });

  it('names the staff member behind an impersonated session', async () => {
    const staff = await makeUser(t.database, 'super');
    const target = await makeUser(t.database, 'admin');
    const started = await t.app.inject({
      method: 'PUT',
      url: `/auth/impersonate/${target.id}`,
      headers: { ...CONSOLE_HEADERS, cookie: await signIn(t.app, staff.email) },
    });
    expect(started.statusCode).toBe(200);
    const as = started.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const res = await api.get('/v2/keys', as);
    expect(linesOf(String(res.headers['x-request-id']))).toEqual([
      expect.objectContaining({ userId: target.id, impersonatorId: staff.id }),
    ]);
  });

  it('counts the bytes a real connection sent for the reply, headers included', async () => {
    const served = await buildTestApp();
    try {
      await served.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = served.app.server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/livez`);
      const body = await res.text();
      const id = res.headers.get('x-request-id')!;
      let line: Line | undefined;
      for (let i = 0; i < 50 && !line; i++) {
        line = served.logs.map((l) => JSON.parse(l) as Line).find((l) => l.reqId === id && l.msg === ACCESS_LINE);
        if (!line) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(line!.bytes).toBeGreaterThan(Buffer.byteLength(body) + 100); // the status line and headers too
      expect(line!.ip).toBe('127.0.0.1');
    } finally {
      await served.app.close();
    }
  });

  it('names a console session’s user, and nobody for an anonymous or unmatched request', async () => {
    const self = await api.get('/v2/keys', cookie);
    expect(linesOf(String(self.headers['x-request-id']))).toEqual([
      expect.objectContaining({ route: '/v2/keys', status: 200, userId: user.id, organizationId, keyId: null }),
    ]);
    const missing = await t.app.inject({ method: 'GET', url: '/v2/no-such-thing?token=abc' });
    expect(linesOf(String(missing.headers['x-request-id']))).toEqual([
      expect.objectContaining({
        route: null,
        url: '/v2/no-such-thing?token=[redacted]',
        status: 404,
        userId: null,
        organizationId: null,
        keyId: null,
      }),
    ]);
  });
});
