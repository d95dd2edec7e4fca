import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERMS_REQUIRED } from '../../http/standing-gate';
import { buildTestApp, CONSOLE_HEADERS, makeUser, signIn, type TestApp } from '../../test/harness';
import { publishAgreement } from './repo';
import { AGREEMENT_CHANGED } from './routes';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { ...CONSOLE_HEADERS, cookie }, payload: payload as object });

async function signer() {
  const user = await makeUser(t.database, 'admin', null, { acceptTerms: false });
  const login = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    headers: CONSOLE_HEADERS,
    payload: { email: user.email, password: 'Corr3ct-horse!' },
  });
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return { user, login, cookie };
}

describe('the agreement gate (spec §4)', () => {
  it('makes a user who has not accepted the agreement a signer, sent to /terms at sign-in', async () => {
    const { login, cookie } = await signer();
    expect(login.json()).toEqual({ location: '/terms' });
    const self = await call('GET', '/v2/self', cookie);
    expect(self.json().self.role).toBe('signer');
  });

  it('answers 451 to a signer for everything but the terms, accepting, itself and signing out', async () => {
    const { cookie } = await signer();
    const blocked = await call('GET', '/v2/version', cookie);
    expect(blocked.statusCode).toBe(451);
    expect(blocked.json()).toMatchObject({ code: 'legal_notice', error: TERMS_REQUIRED });
    expect((await call('GET', '/healthz', cookie)).statusCode).toBe(200);
    expect((await call('GET', '/v2/self', cookie)).statusCode).toBe(200);
    const terms = await call('GET', '/v2/terms', cookie);
    expect(terms.statusCode).toBe(200);
    expect(terms.json().nda).toContain('Tessera Terms of Use');
    expect(terms.json().ndaId).toBeGreaterThan(0);
  });

  it('accepting the current agreement makes a user again, with a new session token', async () => {
    const { cookie, login } = await signer();
    const { ndaId } = (await call('GET', '/v2/terms', cookie)).json();
    const accepted = await call('POST', '/v2/terms/accept', cookie, { ndaId });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().self.role).toBe('admin');
    const oldToken = login.cookies.find((c) => c.name === 'tessera_session')!.value;
    const newToken = accepted.cookies.find((c) => c.name === 'tessera_session')!.value;
    expect(newToken).not.toBe(oldToken);
    // The old token no longer works; the new one does.
    expect((await call('GET', '/v2/self', cookie)).json().self.id).toBe(0);
    const next = accepted.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await call('GET', '/v2/self', next)).json().self.role).toBe('admin');
  });

  it('refuses an outdated ndaId with 409, and a new version makes everyone a signer again', async () => {
    const user = await makeUser(t.database);
    const cookie = await signIn(t.app, user.email);
    const before = (await call('GET', '/v2/terms', cookie)).json().ndaId as number;
    await publishAgreement(t.database.db, '<h2>Tessera Terms of Use</h2><p>Version two.</p>');
    expect((await call('GET', '/v2/self', cookie)).json().self.role).toBe('signer');
    const stale = await call('POST', '/v2/terms/accept', cookie, { ndaId: before });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe(AGREEMENT_CHANGED);
    // Nothing of the refused acceptance happened: the session was not replaced.
    expect(stale.cookies).toHaveLength(0);
    expect((await call('GET', '/v2/self', cookie)).json().self.id).toBe(user.id);
    const current = await call('GET', '/v2/terms', cookie);
    expect(current.json().nda).toContain('Version two.');
    const fresh = await call('POST', '/v2/terms/accept', cookie, { ndaId: current.json().ndaId });
    expect(fresh.json().self.role).toBe('user');
  });

  it('says when the user accepted the current version, and null before they have (issue 32 item 3)', async () => {
    const { cookie } = await signer();
    const before = (await call('GET', '/v2/terms', cookie)).json();
    expect(before.ndaAcceptedAt).toBeNull();
    const accepted = await call('POST', '/v2/terms/accept', cookie, { ndaId: before.ndaId });
    const next = accepted.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const after = (await call('GET', '/v2/terms', next)).json();
    expect(after.ndaId).toBe(before.ndaId);
    expect(Date.parse(after.ndaAcceptedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(after.ndaAcceptedAt)).toBeLessThanOrEqual(Date.now());
  });

  it('lets a signer decline: signing out without accepting leaves no acceptance, and the gate stays', async () => {
    const { user, cookie } = await signer();
    const { ndaId } = (await call('GET', '/v2/terms', cookie)).json();
    expect((await call('PUT', '/auth/logout', cookie)).statusCode).toBe(200);
    expect((await call('POST', '/v2/terms/accept', cookie, { ndaId })).statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: CONSOLE_HEADERS,
      payload: { email: user.email, password: 'Corr3ct-horse!' },
    });
    expect(again.json()).toEqual({ location: '/terms' });
    const next = again.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await call('GET', '/v2/terms', next)).json().ndaAcceptedAt).toBeNull();
  });

  it('lets a signer sign out', async () => {
    const { cookie } = await signer();
    const out = await call('PUT', '/auth/logout', cookie);
    expect(out.statusCode).toBe(200);
    expect((await call('GET', '/v2/self', cookie)).json().self.id).toBe(0);
  });

  it('checks the body and needs a session', async () => {
    const { cookie } = await signer();
    const bad = await call('POST', '/v2/terms/accept', cookie, { ndaId: 'one' });
    expect(bad.statusCode).toBe(400);
    const anonymous = await call('GET', '/v2/terms', '');
    expect(anonymous.statusCode).toBe(401);
  });

  it('uses the spec message for the gate', () => {
    expect(TERMS_REQUIRED).toBe('Please accept the agreement to continue.');
  });
});
