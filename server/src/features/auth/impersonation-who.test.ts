/** GET /auth/impersonation (issue 32 item 2): who is behind an impersonating session, for the console's bar. */
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { buildTestApp, CONSOLE_HEADERS, makeUser, signIn, type TestApp } from '../../test/harness';
import { IMPERSONATION_MESSAGES } from './impersonation';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

const call = (method: 'GET' | 'PUT', url: string, cookie: string) =>
  t.app.inject({ method, url, headers: { ...CONSOLE_HEADERS, cookie } });
const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

describe('who is impersonating (issue 32 item 2)', () => {
  it('names the staff user behind the session, and nothing more', async () => {
    const staff = await makeUser(t.database, 'super');
    await t.database.db.update(users).set({ name: 'Sue Staff' }).where(eq(users.id, staff.id));
    const customer = await makeUser(t.database, 'user');
    const started = await call('PUT', AUTH_PATHS.impersonate(customer.id), await signIn(t.app, staff.email));
    expect(started.statusCode).toBe(200);
    const res = await call('GET', AUTH_PATHS.impersonation, cookieOf(started));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      impersonation: { impersonator: { id: staff.id, name: 'Sue Staff', email: staff.email, role: 'super' } },
    });
  });

  it('answers 409 to a session that impersonates nobody, also after stopping', async () => {
    const staff = await makeUser(t.database, 'root');
    const customer = await makeUser(t.database, 'admin');
    const own = await signIn(t.app, staff.email);
    const plain = await call('GET', AUTH_PATHS.impersonation, own);
    expect(plain.statusCode).toBe(409);
    expect(plain.json().error).toBe(IMPERSONATION_MESSAGES.notImpersonating);

    const started = await call('PUT', AUTH_PATHS.impersonate(customer.id), own);
    const stopped = await call('PUT', AUTH_PATHS.stopImpersonating, cookieOf(started));
    expect(stopped.statusCode).toBe(200);
    expect((await call('GET', AUTH_PATHS.impersonation, cookieOf(stopped))).statusCode).toBe(409);
    // The impersonating token was replaced when it stopped: it reads nothing any more.
    expect((await call('GET', AUTH_PATHS.impersonation, cookieOf(started))).statusCode).toBe(401);
  });

  it('needs a session', async () => {
    const res = await call('GET', AUTH_PATHS.impersonation, '');
    expect(res.statusCode).toBe(401);
  });
});
