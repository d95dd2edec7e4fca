import { randomUUID } from 'node:crypto';
import { USER_COOKIE } from '@tessera/common/entities';
import { PROVIDER_FAILURES } from '@tessera/common/providers';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, identities, users } from '../../db/schema';
import { makeOrganization, makeUser, PASSWORD } from '../../test/harness';
import { findUserByEmail, insertUser } from '../users/repo';
import { type TestBrowser, useOauthTestApp } from './test-issuer';

const fx = useOauthTestApp(['google', 'microsoft']);
const { browser } = fx;
const domain = () => `d${randomUUID().slice(0, 8)}.example`;

const organization = (acceptUsers: boolean, emailDomain = domain()) =>
  makeOrganization(fx.t.database, 'Acme', { emailDomain, acceptUsers });

const userByEmail = async (email: string) => (await findUserByEmail(fx.t.database.db, email))?.user;

async function identitiesOf(subject: string) {
  return fx.t.database.db.select().from(identities).where(eq(identities.subject, subject));
}

async function actions(userId: number) {
  const rows = await fx.t.database.db.select().from(auditLog).where(eq(auditLog.actorId, userId));
  return rows.map((r) => ({ action: r.action, detail: r.detail }));
}

function expectSignedIn(res: Awaited<ReturnType<TestBrowser['visit']>>) {
  expect(res.statusCode).toBe(302);
  const user = JSON.parse(decodeURIComponent(res.cookies.find((c) => c.name === USER_COOKIE)!.value));
  // A newcomer goes to the agreement first, as after a password sign-in (spec §4).
  expect(res.headers.location).toBe(user.role === 'signer' ? '/terms' : '/');
  const session = res.cookies.find((c) => c.name === 'tessera_session')!;
  expect(session.httpOnly).toBe(true);
  expect(session.maxAge).toBeUndefined(); // not remembered: ends with the browser
  return JSON.parse(decodeURIComponent(res.cookies.find((c) => c.name === USER_COOKIE)!.value));
}

function expectFailure(res: Awaited<ReturnType<TestBrowser['visit']>>, failure: string, provider = 'google') {
  const location = fx.failureOf(res);
  expect(location.get('failure')).toBe(failure);
  expect(location.get('provider')).toBe(provider);
  expect(failure in PROVIDER_FAILURES).toBe(true);
  expect(res.cookies.find((c) => c.name === 'tessera_session')).toBeUndefined();
  return location;
}

describe('a new person', () => {
  it('joins the organization accepting their domain, verified, without a password, and is signed in', async () => {
    const org = await organization(true);
    const email = `Ada.Lovelace@${org.emailDomain}`;
    const sub = fx.issuer.person({ email, email_verified: true, name: 'Ada Lovelace' });
    const b = browser();

    const record = expectSignedIn(await b.signIn('google', { as: sub }));
    const user = (await userByEmail(email))!;
    expect(user).toMatchObject({ email, name: 'Ada Lovelace', role: 'user', organizationId: org.id, isActive: true });
    expect(user.verifiedAt).not.toBeNull();
    expect(user.passwordHash).toBeNull();
    expect(record).toMatchObject({ id: user.id, email, organizationName: 'Acme' });
    expect(await identitiesOf(sub)).toMatchObject([{ provider: 'google', userId: user.id, email }]);
    expect(await actions(user.id)).toEqual([
      { action: 'oauth.signup', detail: { provider: 'google', organizationId: org.id } },
      { action: 'login.success', detail: { provider: 'google' } },
    ]);

    const self = await fx.t.app.inject({ url: '/v2/self', cookies: Object.fromEntries(b.tessera) });
    expect(self.json().self).toMatchObject({ id: user.id, email });
  });

  it('signs in as the same user next time, found by (provider, subject) even after the e-mail changed', async () => {
    const org = await organization(true);
    const sub = fx.issuer.person({ email: `grace@${org.emailDomain}`, email_verified: true, name: 'Grace' });
    const first = expectSignedIn(await browser().signIn('google', { as: sub }));
    fx.issuer.person({ sub, email: `grace.hopper@elsewhere.example`, email_verified: false });

    const again = expectSignedIn(await browser().signIn('google', { as: sub }));
    expect(again.id).toBe(first.id);
    expect(await identitiesOf(sub)).toHaveLength(1);
    expect((await actions(first.id)).filter((a) => a.action === 'login.success')).toHaveLength(2);
  });

  it('is refused when no organization accepts their domain, and nothing is created', async () => {
    const closed = await organization(false);
    for (const email of [`bob@${closed.emailDomain}`, `bob@${domain()}`]) {
      const sub = fx.issuer.person({ email, email_verified: true });
      const location = expectFailure(await browser().signIn('google', { as: sub }), 'domain');
      expect(location.get('domain')).toBe(email.split('@')[1]);
      expect(await userByEmail(email)).toBeUndefined();
      expect(await identitiesOf(sub)).toHaveLength(0);
    }
  });

  it('is refused when the provider has not verified the e-mail, or gives none', async () => {
    const org = await organization(true);
    for (const claims of [
      { email: `carol@${org.emailDomain}`, email_verified: false },
      { email: `carol2@${org.emailDomain}` },
      { name: 'No Address' },
    ]) {
      const sub = fx.issuer.person(claims);
      expectFailure(await browser().signIn('google', { as: sub }), 'unverified');
      expect(await identitiesOf(sub)).toHaveLength(0);
    }
    expect(await userByEmail(`carol@${org.emailDomain}`)).toBeUndefined();
  });
});

describe('Microsoft, which sends no email_verified', () => {
  it('counts an address as verified only with its domain-owner claim (xms_edov)', async () => {
    const org = await organization(true);
    const without = fx.issuer.person({ email: `no-claim@${org.emailDomain}`, name: 'No Claim' });
    expectFailure(await browser().signIn('microsoft', { as: without }), 'unverified', 'microsoft');
    const withClaim = fx.issuer.person({ email: `edov@${org.emailDomain}`, name: 'Edov', xms_edov: true });
    expectSignedIn(await browser().signIn('microsoft', { as: withClaim }));
    expect(await userByEmail(`edov@${org.emailDomain}`)).toMatchObject({ organizationId: org.id });
    const stated = fx.issuer.person({ email: `both@${org.emailDomain}`, email_verified: false, xms_edov: true });
    expectFailure(await browser().signIn('microsoft', { as: stated }), 'unverified', 'microsoft');
  });
});

describe('an existing account', () => {
  it('is linked and signed in when both the provider and Tessera verified the e-mail', async () => {
    const member = await makeUser(fx.t.database, 'admin');
    const sub = fx.issuer.person({ email: member.email.toUpperCase(), email_verified: true, name: 'Someone Else' });

    const record = expectSignedIn(await browser().signIn('microsoft', { as: sub }));
    expect(record).toMatchObject({ id: member.id, email: member.email });
    expect(await identitiesOf(sub)).toMatchObject([{ provider: 'microsoft', userId: member.id }]);
    expect(await actions(member.id)).toEqual([
      { action: 'oauth.link', detail: { provider: 'microsoft' } },
      { action: 'login.success', detail: { provider: 'microsoft' } },
    ]);
    expect((await userByEmail(member.email))!.name).toBe(''); // the provider's name does not overwrite the account's
  });

  it('is not linked when the provider has not verified the e-mail', async () => {
    const member = await makeUser(fx.t.database);
    const sub = fx.issuer.person({ email: member.email, email_verified: false });
    expectFailure(await browser().signIn('google', { as: sub }), 'unverified');
    expect(await identitiesOf(sub)).toHaveLength(0);
    expect(await actions(member.id)).toEqual([]);
  });

  it('is not linked when Tessera has not verified it, or it is inactive', async () => {
    const unverified = await insertUser(fx.t.database.db, {
      email: `pending-${randomUUID()}@tessera.test`,
      role: 'user',
    });
    const inactive = await makeUser(fx.t.database);
    await fx.t.database.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    for (const email of [unverified.email, inactive.email]) {
      const sub = fx.issuer.person({ email, email_verified: true });
      expectFailure(await browser().signIn('google', { as: sub }), 'account');
      expect(await identitiesOf(sub)).toHaveLength(0);
    }
  });

  it('linked earlier, no longer signs in once deactivated', async () => {
    const member = await makeUser(fx.t.database);
    const sub = fx.issuer.person({ email: member.email, email_verified: true });
    expectSignedIn(await browser().signIn('google', { as: sub }));
    await fx.t.database.db.update(users).set({ isActive: false }).where(eq(users.id, member.id));
    expectFailure(await browser().signIn('google', { as: sub }), 'account');
    const failures = await fx.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'login.failure'), sql`${auditLog.detail}->>'reason' = 'account'`));
    expect(failures.length).toBeGreaterThan(0);
  });
});

describe('logs', () => {
  it('carry no e-mail addresses, codes or tokens', async () => {
    const org = await organization(true);
    const email = `secretive@${org.emailDomain}`;
    const sub = fx.issuer.person({ email, email_verified: true });
    const b = browser();
    const start = await b.visit('/oauth/google');
    const callback = await b.atProvider(String(start.headers.location), { as: sub });
    expectSignedIn(await b.visit(callback.pathname + callback.search));
    const logs = fx.t.logs.join('\n');
    expect(logs).not.toContain(email);
    expect(logs).not.toContain(callback.searchParams.get('code'));
    expect(logs).not.toContain(callback.searchParams.get('state'));
    expect(logs).not.toContain(b.tessera.get('tessera_session'));
  });
});

describe('signing in again in the same browser', () => {
  it('ends the session the browser had, as a password sign-in does', async () => {
    const user = await makeUser(fx.t.database);
    const login = await fx.t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      payload: { email: user.email, password: PASSWORD },
    });
    const before = login.cookies.find((c) => c.name === 'tessera_session')!.value;
    const b = browser();
    b.tessera.set('tessera_session', before);
    const sub = fx.issuer.person({ email: user.email, email_verified: true });
    const signedIn = expectSignedIn(await b.signIn('google', { as: sub }));
    expect(signedIn.id).toBe(user.id);
    expect(b.tessera.get('tessera_session')).not.toBe(before);
    const old = await fx.t.app.inject({ url: '/v2/self', cookies: { tessera_session: before } });
    expect(old.json().self.id).toBe(0);
  });
});

describe('starting outside sign-ins', () => {
  it('is limited per client address, and says so on /login', async () => {
    const start = () => fx.t.app.inject({ url: '/oauth/google', remoteAddress: '10.9.9.9' });
    for (let i = 0; i < 30; i++) expect(String((await start()).headers.location)).not.toContain('/login');
    const refused = await start();
    const params = fx.failureOf(refused);
    expect(params.get('failure')).toBe('throttled');
    expect(refused.cookies).toHaveLength(0);
  });
});
