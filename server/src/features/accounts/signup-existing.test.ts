/**
 * Anonymous sign-up never changes an account that exists (issue 12 item 12), and the mail it sends carries nothing
 * the requester typed: a pending account gets the reply a new address gets and a fresh link at its own address.
 */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { consoleClient, cookieOf } from '../../test/console-client';
import { buildTestApp, makeOrganization, makeUser, signIn, type TestApp, uniqueDomain } from '../../test/harness';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { memoryLimiter } from '../throttle/limiter';

let t: TestApp;
let smtp: TestSmtpServer;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({
    env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://console.tessera.example' },
    limiter: memoryLimiter(),
  });
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
});

const ATTACKER = 'Your account is locked: call +1 900 555 0100';
let ip = 0;
const signup = (name: string, email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/signup',
    headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
    payload: { name, email },
    remoteAddress: `10.2.0.${++ip}`,
  });

async function mailsTo(address: string) {
  await t.app.mailer.drain();
  return smtp.received.filter((m) => m.recipients.includes(address)).map((m) => parseMail(m.raw));
}
const linkOf = (mail: { text: string }, path: string) =>
  new RegExp(`https://console\\.tessera\\.example${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text)?.[1];
const rowOf = async (email: string) => (await t.database.db.select().from(users).where(eq(users.email, email)))[0]!;

async function acceptingOrganizationWithAdmin() {
  const domain = uniqueDomain();
  const org = await makeOrganization(t.database, undefined, { emailDomain: domain, acceptUsers: true });
  const admin = await makeUser(t.database, 'admin', org.id);
  return { org, domain, cookie: await signIn(t.app, admin.email) };
}

describe('sign-up for an address that has an account', () => {
  it('leaves a pending account an administrator made as it was, answers as for a new address, mails no requester text', async () => {
    const { org, domain, cookie } = await acceptingOrganizationWithAdmin();
    const email = `jane@${domain}`;
    const created = await api.post('/v2/users', cookie, { email, name: 'Jane Doe', title: 'Analyst', role: 'user' });
    expect(created.statusCode).toBe(200);
    const before = await rowOf(email);

    const res = await signup(ATTACKER, email);
    const fresh = await signup('Someone New', `someone@${domain}`);
    expect([res.statusCode, res.body]).toEqual([fresh.statusCode, fresh.body]);
    expect(res.json()).toEqual({ sent: true });
    expect(await rowOf(email)).toEqual(before);

    const mails = await mailsTo(email);
    const subjectIs = (subject: string) => mails.find((m) => m.headers.get('subject') === subject);
    expect(mails).toHaveLength(2);
    const setMail = subjectIs('Set your Tessera password');
    const verifyMail = subjectIs('Verify your email for Tessera');
    expect(verifyMail!.text).not.toContain('locked');
    expect(verifyMail!.html).not.toContain('locked');
    expect(verifyMail!.text.startsWith('Hello,')).toBe(true);
    // The administrator's link still works, and so does the new one: each opens the same account, unchanged.
    const opened = await api.post('/auth/link', '', { token: linkOf(verifyMail!, '/password/set') });
    expect(opened.json().self).toMatchObject({ email, name: 'Jane Doe', organizationId: org.id, role: 'resetter' });
    await api.put('/auth/logout', cookieOf(opened));
    const viaSet = await api.post('/auth/link', '', { token: linkOf(setMail!, '/password/set') });
    expect(viaSet.json().self).toMatchObject({ email, name: 'Jane Doe' });
  });

  it('keeps the name a pending sign-up gave, whoever signs up again, and greets nobody by name', async () => {
    const { domain } = await acceptingOrganizationWithAdmin();
    const email = `bo@${domain}`;
    expect((await signup('Bo Diddley', email)).json()).toEqual({ sent: true });
    expect((await signup(ATTACKER, email.toUpperCase())).json()).toEqual({ sent: true });
    expect((await rowOf(email)).name).toBe('Bo Diddley');
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.text).not.toContain('Bo Diddley');
      expect(mail.text).not.toContain('locked');
      expect(mail.text.startsWith('Hello,')).toBe(true);
    }
  });

  it('mails nothing for a deactivated pending account, with the same reply', async () => {
    const { domain, cookie } = await acceptingOrganizationWithAdmin();
    const email = `gone@${domain}`;
    const created = await api.post('/v2/users', cookie, { email, name: 'Gone', role: 'user' });
    const id = (Object.values(created.json().users)[0] as { id: number }).id;
    expect((await api.put(`/v2/users/${id}`, cookie, { isActive: false })).statusCode).toBe(200);
    const before = await rowOf(email);
    const res = await signup(ATTACKER, email);
    expect([res.statusCode, res.json()]).toEqual([200, { sent: true }]);
    expect(await rowOf(email)).toEqual(before);
    expect((await mailsTo(email)).map((m) => m.headers.get('subject'))).toEqual(['Set your Tessera password']);
  });

  it('refuses an account in use, under any spelling of its address, and changes nothing', async () => {
    const { org } = await acceptingOrganizationWithAdmin();
    const user = await makeUser(t.database, 'user', org.id);
    const before = await rowOf(user.email);
    for (const spelling of [user.email, user.email.toUpperCase(), ` ${user.email} `]) {
      const res = await signup(ATTACKER, spelling);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe(ACCOUNT_MESSAGES.existingUser(spelling.trim()));
    }
    expect(await rowOf(user.email)).toEqual(before);
    expect(await mailsTo(user.email)).toEqual([]);
  });
});

describe('one address, one account (decision 0020)', () => {
  const fullWidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

  it('stores and mails the canonical form of a full-width address, and takes no other spelling of it again', async () => {
    const { domain, cookie } = await acceptingOrganizationWithAdmin();
    const email = `wide@${domain}`;
    expect((await signup('Wide', `${fullWidth('wide')}＠${domain}`)).json()).toEqual({ sent: true });
    expect((await rowOf(email)).email).toBe(email);
    expect(await mailsTo(email)).toHaveLength(1);
    const again = await api.post('/v2/users', cookie, { email: email.toUpperCase(), name: 'Again', role: 'user' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(ACCOUNT_MESSAGES.existingUser(email.toUpperCase()));
  });

  it('refuses an address with a non-ASCII local part on every form, as the database would fold it', async () => {
    const { domain, cookie } = await acceptingOrganizationWithAdmin();
    const dotted = `adm\u0130n@${domain}`;
    expect((await signup('X', dotted)).statusCode).toBe(400);
    expect((await api.post('/v2/users', cookie, { email: dotted, name: 'X', role: 'user' })).statusCode).toBe(400);
    expect((await api.post('/auth/preapprove', '', { email: dotted })).statusCode).toBe(400);
    expect((await api.post('/auth/forgot', '', { email: dotted })).statusCode).toBe(400);
  });
});
