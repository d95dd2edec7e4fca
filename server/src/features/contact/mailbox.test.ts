/**
 * Contact Us takes one mailbox too (issue 28 item 9). Its mail goes to SUPPORT_EMAIL, but staff answer the address
 * given and the per-address limit counts it: `5,victim@…` made every message a new "address" (no limit at all)
 * and an answer to it a mail to the victim. Lists, names, comments, groups and quotes: 400 naming the field,
 * nothing stored or mailed; one address in any case or width is counted as one.
 */
import { randomUUID } from 'node:crypto';
import { CONTACT_MESSAGES } from '@tessera/common/contact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, CONSOLE_HEADERS, type TestApp } from '../../test/harness';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { isOneMailbox } from './mailbox';
import { CONTACT_THROTTLE } from './routes';

let t: TestApp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url, SUPPORT_EMAIL: 'support@tessera.test' } });
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
});

let ip = 0;
function send(email: string, remoteAddress = `198.51.100.${(++ip % 250) + 1}`) {
  return t.app.inject({
    method: 'POST',
    url: '/v2/contact',
    headers: CONSOLE_HEADERS,
    payload: { name: 'Ada', email, message: 'Hello' },
    remoteAddress,
  });
}

async function storedFor(victim: string): Promise<number> {
  const rows = await t.database.query<{ n: number }>(
    'select count(*)::int as n from contact_messages where lower(email) like $1',
    [`%${victim}%`],
  );
  return rows[0]!.n;
}

describe('POST /v2/contact takes one mailbox', () => {
  it('refuses an address list past the per-address limit, and every disguise of one (400 naming the field)', async () => {
    const victim = `victim.${randomUUID().slice(0, 8)}@example.com`;
    const [local, domain] = victim.split('@') as [string, string];
    const burst = Array.from({ length: CONTACT_THROTTLE.perAddress.limit * 2 }, (_, i) => `${i},${victim}`);
    const disguises = [`a;${victim}`, `a<${victim}`, `(a)${victim}`, `"${local}"@${domain}`, `g:${victim}`];
    const answers: Record<string, unknown> = {};
    for (const email of [...burst, ...disguises]) {
      const res = await send(email);
      answers[email] = [res.statusCode, res.json().fields];
    }
    const refused = [400, [{ path: 'body.email', message: CONTACT_MESSAGES.oneAddress }]];
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((email) => [email, refused])));
    expect(await storedFor(victim)).toBe(0);
  });

  it('counts one address in any case or width as one (429 past the limit)', async () => {
    const victim = `same.${randomUUID().slice(0, 8)}@example.com`;
    const wide = [...victim].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
    const forms = [victim, victim.toUpperCase(), wide, ` ${victim}`, victim.replace('same', 'Same')];
    expect(forms).toHaveLength(CONTACT_THROTTLE.perAddress.limit);
    for (const email of forms) expect((await send(email)).statusCode, email).toBe(201);
    const refused = await send(victim);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await storedFor(victim)).toBe(CONTACT_THROTTLE.perAddress.limit);
  });
});

describe('isOneMailbox', () => {
  it('is what nodemailer mails unchanged: one bare address', () => {
    for (const ok of ['a@example.com', "o'neil+tag@mail.example.co.uk", 'first.last_1@x.io', 'a{b}|c~d@x.io'])
      expect(isOneMailbox(ok), ok).toBe(true);
    for (const bad of [
      '1,a@x.io',
      'a;b@x.io',
      'A <a@x.io>',
      'a(c)@x.io',
      '"a"@x.io',
      'g:a@x.io',
      'a>b@x.io',
      'a\\b@x.io',
      'a@x.io,',
    ])
      expect(isOneMailbox(bad), bad).toBe(false);
  });
});
