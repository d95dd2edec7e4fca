/** Sign-up, links, forgotten and changed passwords, through the real endpoints with mail over real SMTP. */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { MESSAGES } from '@tessera/common/validation';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, users } from '../../db/schema';
import { buildTestApp, CONSOLE_HEADERS, makeUser, PASSWORD, signIn, type TestApp } from '../../test/harness';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { memoryLimiter } from '../throttle/limiter';
import { TOO_MANY } from '../throttle/rules';

let t: TestApp;
let smtp: TestSmtpServer;
const limiter = memoryLimiter();
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://console.tessera.example' }, limiter });
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
});

const NEW_PASSWORD = 'N3w-passw0rd!';
let ip = 0;
/** Each test comes from its own address, so throttling of one does not reach another. */
const from = () => `10.0.0.${++ip}`;

function post(url: string, payload: unknown, cookie = '', remoteAddress = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...CONSOLE_HEADERS, cookie },
    payload: payload as object,
    remoteAddress,
  });
}
const get = (url: string, cookie: string) =>
  t.app.inject({ method: 'GET', url, headers: { ...CONSOLE_HEADERS, cookie } });
const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

async function mailTo(address: string) {
  await t.app.mailer.drain();
  const mails = smtp.received.filter((m) => m.recipients.includes(address)).map((m) => parseMail(m.raw));
  return mails;
}
function tokenOf(mail: { text: string }, path: string): string {
  const match = new RegExp(`https://console\\.tessera\\.example${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[1];
}

async function acceptingOrganization(domain: string, acceptUsers = true) {
  const [org] = await t.database.db
    .insert(organizations)
    .values({ name: `Org of ${domain}`, emailDomain: domain, acceptUsers })
    .returning();
  return org!;
}

describe('pre-approval (spec §2 sign-up)', () => {
  it('tells the domain, its organization, whether it accepts users and whether the account exists', async () => {
    const org = await acceptingOrganization('acme-pre.test');
    const fresh = await post('/auth/preapprove', { email: 'new@Acme-Pre.test' }, '', from());
    expect(fresh.json()).toEqual({
      emailDomain: 'acme-pre.test',
      organizationName: org.name,
      acceptUsers: true,
      userId: 0,
    });
    const user = await makeUser(t.database);
    const existing = await post('/auth/preapprove', { email: user.email }, '', from());
    expect(existing.json()).toMatchObject({ emailDomain: 'tessera.test', acceptUsers: false, userId: user.id });
    const unknown = await post('/auth/preapprove', { email: 'a@nobody-here.test' }, '', from());
    expect(unknown.json()).toEqual({
      emailDomain: 'nobody-here.test',
      organizationName: '',
      acceptUsers: false,
      userId: 0,
    });
  });

  it('refuses a malformed address with the spec message', async () => {
    const res = await post('/auth/preapprove', { email: 'not-an-address' }, '', from());
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ path: 'body.email', message: MESSAGES.email }]);
  });

  it('is throttled per client address with Retry-After, since it reveals who has an account', async () => {
    const address = from();
    for (let i = 0; i < 30; i++)
      expect((await post('/auth/preapprove', { email: `p${i}@x.test` }, '', address)).statusCode).toBe(200);
    const refused = await post('/auth/preapprove', { email: 'p31@x.test' }, '', address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(TOO_MANY);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('sign-up → verify → set password → agreement (spec §4)', () => {
  it('walks the whole path and joins the accepting organization on verification', async () => {
    const org = await acceptingOrganization('acme-join.test');
    const email = 'ada@acme-join.test';
    const sent = await post('/auth/signup', { name: 'Ada Lovelace', email }, '', from());
    expect(sent.json()).toEqual({ sent: true });
    const [mail] = await mailTo(email);
    expect(mail?.headers.get('subject')).toBe('Verify your email for Tessera');
    const token = tokenOf(mail!, '/password/set');
    const [pending] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(pending).toMatchObject({ organizationId: null, verifiedAt: null, passwordHash: null });

    const opened = await post('/auth/link', { token });
    expect(opened.json().self).toMatchObject({ email, role: 'resetter', organizationId: org.id });
    const resetter = cookieOf(opened);
    expect((await get('/v2/terms', resetter)).statusCode).toBe(403);
    expect((await post('/auth/password/reset', { newPassword: NEW_PASSWORD }, resetter)).statusCode).toBe(403);
    const weak = await post('/auth/password/set', { newPassword: 'short' }, resetter);
    expect(weak.json().fields).toEqual([{ path: 'body.newPassword', message: MESSAGES.password }]);

    const set = await post('/auth/password/set', { newPassword: NEW_PASSWORD }, resetter);
    expect(set.json()).toMatchObject({ location: '/terms', self: { role: 'signer', organizationName: org.name } });
    const signer = cookieOf(set);
    expect((await get('/v2/self', resetter)).json().self.id).toBe(0); // the link's session is over
    const { ndaId } = (await get('/v2/terms', signer)).json();
    const accepted = await post('/v2/terms/accept', { ndaId }, signer);
    expect(accepted.json().self.role).toBe('user');

    expect((await post('/auth/link', { token })).json().error).toBe(ACCOUNT_MESSAGES.linkExpired);
    const login = await post('/auth/login', { email, password: NEW_PASSWORD });
    expect(login.json()).toEqual({ location: '/' });
  });

  it('refuses an existing account and a domain nobody accepts, with the spec messages', async () => {
    const user = await makeUser(t.database);
    const existing = await post('/auth/signup', { name: 'X', email: user.email }, '', from());
    expect(existing.statusCode).toBe(409);
    expect(existing.json().error).toBe(ACCOUNT_MESSAGES.existingUser(user.email));
    await acceptingOrganization('closed.test', false);
    const closed = await post('/auth/signup', { name: 'X', email: 'x@closed.test' }, '', from());
    expect(closed.statusCode).toBe(422);
    expect(closed.json().error).toBe(
      'Sorry, there is no organization accepting new users with emails ending in closed.test. Please contact your administrator to create an account for you.',
    );
    const blank = await post('/auth/signup', { name: '  ', email: 'x@closed.test' }, '', from());
    expect(blank.json().fields).toEqual([{ path: 'body.name', message: 'Please provide a name.' }]);
  });

  it('re-sends the verification to an address not yet verified, and only the newest link works', async () => {
    await acceptingOrganization('again.test');
    const email = 'bo@again.test';
    await post('/auth/signup', { name: 'Bo', email }, '', from());
    await post('/auth/signup', { name: 'Bo', email }, '', from());
    const [first, second] = await mailTo(email);
    expect((await post('/auth/link', { token: tokenOf(first!, '/password/set') })).statusCode).toBe(422);
    expect((await post('/auth/link', { token: tokenOf(second!, '/password/set') })).statusCode).toBe(200);
  });
});

describe('forgotten password (spec §2, §8)', () => {
  it('answers the same for known and unknown addresses, and mails only a known one', async () => {
    const user = await makeUser(t.database);
    const known = await post('/auth/forgot', { email: user.email }, '', from());
    const unknown = await post('/auth/forgot', { email: 'nobody@tessera.test' }, '', from());
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(known.body).toBe(unknown.body);
    expect(await mailTo('nobody@tessera.test')).toEqual([]);
    const [mail] = await mailTo(user.email);
    expect(mail?.headers.get('subject')).toBe('Reset your Tessera password');
  });

  it('resets through the link without signing in, and ends every session of the user', async () => {
    const user = await makeUser(t.database);
    const elsewhere = await signIn(t.app, user.email);
    await post('/auth/forgot', { email: user.email }, '', from());
    const [mail] = await mailTo(user.email);
    const opened = await post('/auth/link', { token: tokenOf(mail!, '/password/reset') });
    const resetter = cookieOf(opened);
    expect((await post('/auth/password/set', { newPassword: NEW_PASSWORD }, resetter)).statusCode).toBe(403);
    const reset = await post('/auth/password/reset', { newPassword: NEW_PASSWORD }, resetter);
    expect(reset.json()).toMatchObject({ location: '/login', self: { id: 0 } });
    expect((await get('/v2/self', elsewhere)).json().self.id).toBe(0);
    expect((await post('/auth/login', { email: user.email, password: PASSWORD })).statusCode).toBe(401);
    expect((await post('/auth/login', { email: user.email, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('builds links from PUBLIC_URL whatever Host the request names', async () => {
    const user = await makeUser(t.database);
    await t.app.inject({
      method: 'POST',
      url: '/auth/forgot',
      headers: { ...CONSOLE_HEADERS, host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      payload: { email: user.email },
      remoteAddress: from(),
    });
    const [mail] = await mailTo(user.email);
    expect(mail?.text).toContain('https://console.tessera.example/password/reset?token=');
    expect(mail?.text).not.toContain('evil.example');
  });
});

describe('changing a password', () => {
  it('needs the current password, and signs out the user’s other browsers', async () => {
    const user = await makeUser(t.database);
    const here = await signIn(t.app, user.email);
    const there = await signIn(t.app, user.email);
    const wrong = await post('/auth/password/change', { password: 'Wrong-passw0rd!', newPassword: NEW_PASSWORD }, here);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual([{ path: 'body.password', message: ACCOUNT_MESSAGES.wrongPassword }]);
    const changed = await post('/auth/password/change', { password: PASSWORD, newPassword: NEW_PASSWORD }, here);
    expect(changed.json()).toMatchObject({ location: '/profile', self: { id: user.id } });
    // This browser goes on under a new token; the old one, and the other browser's, open nothing.
    const renewed = cookieOf(changed);
    expect(renewed).toContain('tessera_session=');
    expect((await get('/v2/self', renewed)).json().self.id).toBe(user.id);
    expect((await get('/v2/self', here)).json().self.id).toBe(0);
    expect((await get('/v2/self', there)).json().self.id).toBe(0);
  });

  it('asks for the current password when it is missing, naming the field', async () => {
    const user = await makeUser(t.database);
    const cookie = await signIn(t.app, user.email);
    const res = await post('/auth/password/change', { newPassword: NEW_PASSWORD }, cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ path: 'body.password', message: 'Please provide your current password.' }]);
  });

  it('is refused to a visitor who is not signed in', async () => {
    const res = await post('/auth/password/change', { password: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(401);
  });
});

describe('sign-in throttling and return paths', () => {
  it('stops an account after 100 failures in an hour, even with the right password', async () => {
    const user = await makeUser(t.database);
    for (let i = 0; i < 100; i++) await limiter.hit(`login:account:${user.email.toLowerCase()}`, 60 * 60 * 1000);
    const refused = await post('/auth/login', { email: user.email, password: PASSWORD }, '', from());
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
  });

  it.each(['//evil.example', '/\\evil.example', 'https://evil.example/', '/\t/evil.example'])(
    'stays on site when asked to return to %s',
    async (returnTo) => {
      const user = await makeUser(t.database);
      const res = await post('/auth/login', { email: user.email, password: PASSWORD, returnTo }, '', from());
      expect(res.json()).toEqual({ location: '/' });
    },
  );

  it('returns to the page the visitor wanted', async () => {
    const user = await makeUser(t.database);
    const res = await post(
      '/auth/login',
      { email: user.email, password: PASSWORD, returnTo: '/usage?range=week' },
      '',
      from(),
    );
    expect(res.json()).toEqual({ location: '/usage?range=week' });
  });

  it('refuses logout by GET', async () => {
    const user = await makeUser(t.database);
    const cookie = await signIn(t.app, user.email);
    const res = await t.app.inject({ method: 'GET', url: '/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('PUT');
    expect((await get('/v2/self', cookie)).json().self.id).toBe(user.id);
  });
});
