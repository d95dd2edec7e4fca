import { USER_COOKIE } from '@tessera/common/entities';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  makeOrganization,
  makeUser,
  PASSWORD,
  signIn,
  type TestApp,
} from '../../test/harness';
import { LOGIN_FAILED } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

const login = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/auth/login', headers: CONSOLE_HEADERS, payload });

describe('POST /auth/login', () => {
  it('starts a session: HttpOnly token cookie and a readable user cookie', async () => {
    const org = await makeOrganization(t.database, 'Acme Data');
    const user = await makeUser(t.database, 'admin', org.id);
    const res = await login({ email: user.email.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ location: '/' });
    const token = res.cookies.find((c) => c.name === 'tessera_session')!;
    expect(token.httpOnly).toBe(true);
    expect(token.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token.maxAge).toBeUndefined();
    const record = JSON.parse(decodeURIComponent(res.cookies.find((c) => c.name === USER_COOKIE)!.value));
    expect(record).toMatchObject({ id: user.id, role: 'admin', organizationName: 'Acme Data', isActive: true });
    expect(record.expires).toBeGreaterThan(Date.now());
    expect(JSON.stringify(record)).not.toMatch(/password|hash/i);
  });

  it('with remember, both cookies persist for 30 days', async () => {
    const user = await makeUser(t.database);
    const res = await login({ email: user.email, password: PASSWORD, remember: 'true' });
    for (const c of res.cookies) expect(c.maxAge).toBeGreaterThan(29 * 24 * 3600);
    for (const c of res.cookies) expect(c.maxAge).toBeLessThanOrEqual(30 * 24 * 3600);
  });

  it('answers 401 with one message for a wrong password and an unknown e-mail', async () => {
    const user = await makeUser(t.database);
    const wrong = await login({ email: user.email, password: 'Wrong-passw0rd' });
    const unknown = await login({ email: 'nobody-at-all@tessera.test', password: PASSWORD });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().error).toBe(LOGIN_FAILED);
    expect(unknown.json().error).toBe(LOGIN_FAILED);
    expect(wrong.cookies).toHaveLength(0);
  });

  it('answers 400 naming missing fields', async () => {
    const res = await login({ email: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { path: string }) => f.path)).toEqual(['body.email', 'body.password']);
  });

  it('uses __Host- Secure cookies when served over HTTPS', async () => {
    const secure = await buildTestApp({ env: { PUBLIC_URL: 'https://console.tessera.example' } });
    const user = await makeUser(secure.database);
    const res = await secure.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: CONSOLE_HEADERS,
      payload: { email: user.email, password: PASSWORD },
    });
    const token = res.cookies.find((c) => c.name === '__Host-tessera_session')!;
    expect(token.secure).toBe(true);
    expect(token.path).toBe('/');
    expect(res.cookies.find((c) => c.name === USER_COOKIE)!.secure).toBe(true);
    await secure.app.close();
  });
});

describe('GET /v2/self and PUT /auth/logout', () => {
  it('knows the signed-in user, and forgets them after logout', async () => {
    const user = await makeUser(t.database, 'super');
    const cookie = await signIn(t.app, user.email);
    const self = await t.app.inject({ url: '/v2/self', headers: { cookie } });
    expect(self.json().self).toMatchObject({ id: user.id, role: 'super', email: user.email });

    const out = await t.app.inject({ method: 'PUT', url: '/auth/logout', headers: { ...CONSOLE_HEADERS, cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.json().self).toMatchObject({ id: 0, role: 'anonymous' });
    expect(out.cookies.every((c) => c.value === '' || (c.expires && c.expires.getTime() < Date.now()))).toBe(true);

    const after = await t.app.inject({ url: '/v2/self', headers: { cookie } });
    expect(after.json().self.id).toBe(0);
  });

  it('treats an unknown or oversized token as anonymous', async () => {
    for (const cookie of ['tessera_session=unknown', `tessera_session=${'x'.repeat(500)}`]) {
      const res = await t.app.inject({ url: '/v2/self', headers: { cookie } });
      expect(res.json().self.id).toBe(0);
    }
  });

  it('refuses logout by GET', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/auth/logout' });
    // A resource that exists under another method (issue 31): 405 naming the one it takes.
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('PUT');
  });
});

describe('credentials of another kind', () => {
  it('never signs a request with an Authorization header in by its cookie', async () => {
    const user = await makeUser(t.database);
    const cookie = await signIn(t.app, user.email);
    const self = await t.app.inject({
      method: 'GET',
      url: '/v2/self',
      headers: { cookie, authorization: 'Bearer junk' },
    });
    expect(self.json().self.id).toBe(0);
    const out = await t.app.inject({
      method: 'PUT',
      url: '/auth/logout',
      headers: { cookie, authorization: 'Bearer junk', origin: 'https://evil.example' },
    });
    expect(out.statusCode).toBe(200);
    const still = await t.app.inject({ method: 'GET', url: '/v2/self', headers: { cookie } });
    expect(still.json().self.id).toBe(user.id);
  });
});

describe('session limits', () => {
  it('ends a browser session left unused for over 2 hours', async () => {
    const user = await makeUser(t.database);
    const cookie = await signIn(t.app, user.email);
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 3 * 60 * 60 * 1000) })
      .where(eq(sessions.userId, user.id));
    const res = await t.app.inject({ method: 'GET', url: '/v2/self', headers: { cookie } });
    expect(res.json().self.id).toBe(0);
  });
});
