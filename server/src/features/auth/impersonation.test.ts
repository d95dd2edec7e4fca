import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../db/schema';
import { buildTestApp, CONSOLE_HEADERS, makeUser, signIn, type TestApp } from '../../test/harness';
import { IMPERSONATION_MESSAGES } from './impersonation';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

const put = (url: string, cookie: string) =>
  t.app.inject({ method: 'PUT', url, headers: { ...CONSOLE_HEADERS, cookie } });
const self = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/v2/self', headers: { cookie } })).json().self;
const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

describe('impersonation (spec §4, §6)', () => {
  it('switches to the target with the real user kept as impersonator, and stop restores them', async () => {
    const admin = await makeUser(t.database, 'super');
    const target = await makeUser(t.database, 'admin');
    const cookie = await signIn(t.app, admin.email);
    const started = await put(`/auth/impersonate/${target.id}`, cookie);
    expect(started.statusCode).toBe(200);
    expect(started.json().self).toMatchObject({ id: target.id, role: 'admin', impersonator: admin.id });
    const as = cookieOf(started);
    expect(await self(as)).toMatchObject({ id: target.id, impersonator: admin.id });
    expect((await self(cookie)).id).toBe(0); // a new token at each step

    const nested = await put(`/auth/impersonate/${target.id}`, as);
    expect(nested.statusCode).toBe(403); // the impersonated admin is below super

    const stopped = await put('/auth/stopImpersonating', as);
    expect(stopped.json().self).toMatchObject({ id: admin.id, role: 'super' });
    expect(stopped.json().self.impersonator).toBeUndefined();
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.impersonatorId, admin.id), eq(auditLog.targetId, String(target.id))));
    expect(rows.map((r) => r.action).sort()).toEqual(['impersonation.start', 'impersonation.stop']);
  });

  it('needs super or higher, strictly above the target', async () => {
    const superUser = await makeUser(t.database, 'super');
    const peer = await makeUser(t.database, 'super');
    const admin = await makeUser(t.database, 'admin');
    const user = await makeUser(t.database, 'user');
    const superCookie = await signIn(t.app, superUser.email);
    const refused = await put(`/auth/impersonate/${peer.id}`, superCookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(IMPERSONATION_MESSAGES.refused);
    expect((await put(`/auth/impersonate/${superUser.id}`, superCookie)).statusCode).toBe(403);
    expect((await put(`/auth/impersonate/${user.id}`, await signIn(t.app, admin.email))).statusCode).toBe(403);
    expect((await put('/auth/impersonate/999999', superCookie)).statusCode).toBe(404);
    expect((await put('/auth/impersonate/abc', superCookie)).statusCode).toBe(400);
    expect((await put(`/auth/impersonate/${user.id}`, '')).statusCode).toBe(401);
  });

  it('re-checks the real user on every request: demoting them ends the impersonation', async () => {
    const root = await makeUser(t.database, 'root');
    const target = await makeUser(t.database, 'user');
    const as = cookieOf(await put(`/auth/impersonate/${target.id}`, await signIn(t.app, root.email)));
    expect((await self(as)).id).toBe(target.id);
    await t.database.db.update(users).set({ role: 'user' }).where(eq(users.id, root.id));
    expect((await self(as)).id).toBe(0);
  });

  it('does not nest: an impersonated super user cannot impersonate in turn', async () => {
    const root = await makeUser(t.database, 'root');
    const superUser = await makeUser(t.database, 'super');
    const user = await makeUser(t.database, 'user');
    const as = cookieOf(await put(`/auth/impersonate/${superUser.id}`, await signIn(t.app, root.email)));
    const nested = await put(`/auth/impersonate/${user.id}`, as);
    expect(nested.statusCode).toBe(409);
    expect(nested.json().error).toBe(IMPERSONATION_MESSAGES.nested);
    expect(await self(as)).toMatchObject({ id: superUser.id, impersonator: root.id });
  });

  it('refuses to stop when not impersonating, and to accept the agreement for someone else', async () => {
    const root = await makeUser(t.database, 'root');
    const cookie = await signIn(t.app, root.email);
    const res = await put('/auth/stopImpersonating', cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(IMPERSONATION_MESSAGES.notImpersonating);
    const newcomer = await makeUser(t.database, 'user', null, { acceptTerms: false });
    const as = cookieOf(await put(`/auth/impersonate/${newcomer.id}`, cookie));
    const accept = await t.app.inject({
      method: 'POST',
      url: '/v2/terms/accept',
      headers: { ...CONSOLE_HEADERS, cookie: as },
      payload: { ndaId: 1 },
    });
    expect(accept.statusCode).toBe(403);
  });
});
