/**
 * Contact Us by outcome (issue 18 item 3): anyone writes (201), the spec §5 messages name each bad field (400),
 * the message is stored and mailed to SUPPORT_EMAIL through a real SMTP server, and is throttled per client IP
 * and per address (429 with Retry-After). Staff (super+) list messages and mark them handled; others get 401/403.
 */
import { randomUUID } from 'node:crypto';
import { CONTACT_LIMITS, CONTACT_MESSAGES } from '@tessera/common/contact';
import { MESSAGES } from '@tessera/common/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, CONSOLE_HEADERS, makeUser, signIn, type TestApp } from '../../test/harness';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { CONTACT_THROTTLE } from './routes';

const SUPPORT = 'support@tessera.test';
let t: TestApp;
let smtp: TestSmtpServer;
const api = consoleClient(() => t.app);
let superCookie: string;
let adminCookie: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url, SUPPORT_EMAIL: SUPPORT } });
  superCookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
  adminCookie = await signIn(t.app, (await makeUser(t.database, 'admin')).email);
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
});

let ipCounter = 0;
/** Every test writes from its own address, so the per-IP counter of one does not spill into another. */
const freshIp = () => `198.51.100.${++ipCounter}`;

function send(payload: unknown, ip = freshIp()) {
  return t.app.inject({
    method: 'POST',
    url: '/v2/contact',
    headers: CONSOLE_HEADERS,
    payload: payload as object,
    remoteAddress: ip,
  });
}

const message = (over: Record<string, string> = {}) => ({
  name: 'Ada Lovelace',
  email: `ada.${randomUUID().slice(0, 8)}@example.com`,
  company: 'Analytical Engines',
  phone: '+1 (555) 010-2030',
  message: 'Hello, I would like to know more about batch lookups.',
  ...over,
});

describe('POST /v2/contact: 201', () => {
  it('stores the message, answers with its id, and mails it to SUPPORT_EMAIL', async () => {
    const body = message({ message: 'Line one <b>bold?</b>\nLine two & more' });
    const res = await send(body);
    expect(res.statusCode).toBe(201);
    const { id } = res.json().contactSent;
    expect(id).toBeGreaterThan(0);
    await t.app.mailer.drain();
    const mail = smtp.received.find(
      (m) => parseMail(m.raw).headers.get('subject') === `Tessera contact message #${id}`,
    );
    expect(mail?.recipients).toEqual([SUPPORT]);
    const parsed = parseMail(mail!.raw);
    expect(parsed.text).toContain(body.email);
    expect(parsed.text).toContain('Line two & more');
    // What a visitor typed is escaped in the HTML part.
    expect(parsed.html).toContain('&lt;b&gt;bold?&lt;/b&gt;');
    expect(parsed.html).not.toContain('<b>bold?</b>');

    const list = await api.get('/v2/contact-messages', superCookie);
    expect(list.statusCode).toBe(200);
    expect(list.json().contactMessages.find((m: { id: number }) => m.id === id)).toMatchObject({
      ...body,
      handledAt: null,
      handledBy: null,
    });
  });

  it('takes a message without the optional company and phone, and signed in as well', async () => {
    const { company: _c, phone: _p, ...required } = message();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/contact',
      headers: { ...CONSOLE_HEADERS, cookie: adminCookie },
      payload: { ...required, company: '', phone: '  ' },
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(201);
    const stored = (await api.get('/v2/contact-messages', superCookie))
      .json()
      .contactMessages.find((m: { id: number }) => m.id === res.json().contactSent.id);
    expect(stored).toMatchObject({ company: '', phone: '' });
  });

  it('logs no personal data', async () => {
    const body = message({ name: 'Zebediah Quill' });
    expect((await send(body)).statusCode).toBe(201);
    await t.app.mailer.drain();
    const logs = t.logs.join('\n');
    expect(logs).not.toContain('Zebediah');
    expect(logs).not.toContain(body.email);
    expect(logs).not.toContain(SUPPORT);
  });
});

describe('POST /v2/contact: 400 names each field with its spec §5 message', () => {
  it('blank, malformed and over-long fields', async () => {
    const res = await send({
      name: '   ',
      email: 'not-an-address',
      company: 'c'.repeat(CONTACT_LIMITS.company + 1),
      phone: 'call me',
      message: '',
    });
    expect(res.statusCode).toBe(400);
    const fields = Object.fromEntries(
      (res.json().fields as { path: string; message: string }[]).map((f) => [f.path, f.message]),
    );
    expect(fields).toEqual({
      'body.name': MESSAGES.required('a name'),
      'body.email': MESSAGES.email,
      'body.company': MESSAGES.tooLong('a company', CONTACT_LIMITS.company),
      'body.phone': CONTACT_MESSAGES.phone,
      'body.message': MESSAGES.required('a message'),
    });
  });

  it('a message past its limit, a name past 100, unknown fields', async () => {
    const long = await send(message({ message: 'm'.repeat(CONTACT_LIMITS.message + 1), name: 'n'.repeat(101) }));
    expect(long.statusCode).toBe(400);
    expect(long.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'body.message', message: MESSAGES.tooLong('a message', CONTACT_LIMITS.message) },
        { path: 'body.name', message: MESSAGES.tooLong('a name', 100) },
      ]),
    );
    expect((await send({ ...message(), extra: 1 })).statusCode).toBe(400);
    const nul = await send(message({ message: 'a\u0000b' }));
    expect(nul.json().fields).toEqual([{ path: 'body.message', message: MESSAGES.text }]);
  });
});

describe('POST /v2/contact: 429 with Retry-After', () => {
  it('per address, whatever the client IP', async () => {
    const email = `same.${randomUUID().slice(0, 8)}@example.com`;
    for (let i = 0; i < CONTACT_THROTTLE.perAddress.limit; i++) {
      expect((await send(message({ email: i % 2 ? email.toUpperCase() : email }))).statusCode).toBe(201);
    }
    const refused = await send(message({ email }));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().code).toBe('rate_limited');
  });

  it('per client IP, whatever the address', async () => {
    const ip = freshIp();
    for (let i = 0; i < CONTACT_THROTTLE.perIp.limit; i++) expect((await send(message(), ip)).statusCode).toBe(201);
    const refused = await send(message(), ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not held up.
    expect((await send(message())).statusCode).toBe(201);
  });
});

describe('GET and PUT /v2/contact-messages', () => {
  it('staff mark a message handled and waiting again (200); lists follow', async () => {
    const { id } = (await send(message())).json().contactSent;
    const done = await api.put(`/v2/contact-messages/${id}`, superCookie, { handled: true });
    expect(done.statusCode).toBe(200);
    expect(done.json().contactMessage).toMatchObject({ id, handledBy: expect.any(Number) });
    expect(Date.parse(done.json().contactMessage.handledAt)).toBeGreaterThan(Date.now() - 60_000);
    const ids = async (handled: string) =>
      (await api.get(`/v2/contact-messages?handled=${handled}`, superCookie))
        .json()
        .contactMessages.map((m: { id: number }) => m.id);
    expect(await ids('true')).toContain(id);
    expect(await ids('false')).not.toContain(id);
    expect(await ids('all')).toContain(id);
    const again = await api.put(`/v2/contact-messages/${id}`, superCookie, { handled: false });
    expect(again.json().contactMessage).toMatchObject({ id, handledAt: null, handledBy: null });
    expect(await ids('false')).toContain(id);
  });

  it('401 signed out, 403 below super', async () => {
    expect((await api.get('/v2/contact-messages', '')).statusCode).toBe(401);
    const forbidden = await api.get('/v2/contact-messages', adminCookie);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe(CONTACT_MESSAGES.forbidden);
    expect((await api.put('/v2/contact-messages/1', adminCookie, { handled: true })).statusCode).toBe(403);
    expect((await api.put('/v2/contact-messages/1', '', { handled: true })).statusCode).toBe(401);
  });

  it('404 for an unknown message, 400 for a bad body or id', async () => {
    const missing = await api.put('/v2/contact-messages/2147483000', superCookie, { handled: true });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(CONTACT_MESSAGES.notFound);
    const bad = await api.put('/v2/contact-messages/1', superCookie, { handled: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].path).toBe('body.handled');
    expect((await api.put('/v2/contact-messages/abc', superCookie, { handled: true })).statusCode).toBe(400);
    expect((await api.get('/v2/contact-messages?handled=maybe', superCookie)).statusCode).toBe(400);
  });
});

describe('without SUPPORT_EMAIL', () => {
  it('stores the message and mails nobody; the log names only its id', async () => {
    const other = await buildTestApp({ env: { SMTP_URL: smtp.url }, database: t.database });
    try {
      await t.app.mailer.drain();
      const before = smtp.received.length;
      const body = message({ name: 'Quentin Nobody' });
      const res = await other.app.inject({
        method: 'POST',
        url: '/v2/contact',
        headers: CONSOLE_HEADERS,
        payload: body,
      });
      expect(res.statusCode).toBe(201);
      await other.app.mailer.drain();
      expect(smtp.received.length).toBe(before);
      const logs = other.logs.join('\n');
      expect(logs).toContain(`"contactMessageId":${res.json().contactSent.id}`);
      expect(logs).not.toContain('Quentin');
      expect(logs).not.toContain(body.email);
    } finally {
      await other.app.close();
    }
  });

  it('refuses a SUPPORT_EMAIL that is not an address', async () => {
    await expect(buildTestApp({ env: { SUPPORT_EMAIL: 'support' }, database: t.database })).rejects.toThrow(
      'SUPPORT_EMAIL',
    );
  });
});
