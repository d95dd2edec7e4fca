/**
 * An impersonation session belongs to the real user behind it: it is theirs to list and end, it ends with their
 * password change or "sign out everywhere", and with their deactivation, sockets included. The user acted as can
 * neither see it nor end it. Its sockets leave channels the impersonated user may not join.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient, cookieOf } from '../../test/console-client';
import { buildTestApp, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { isPush, isReply, openSocket } from '../../test/socket-client';

let t: TestApp;
let base: string;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.app.close());

const selfOf = async (cookie: string) => (await api.get('/v2/self', cookie)).json().self;
type Entry = { id: number; userId: number; impersonatorId: number | null; current: boolean };
const listOf = async (url: string, cookie: string) =>
  Object.values((await api.get(url, cookie)).json().sessions) as Entry[];

async function impersonating() {
  const org = await makeOrganization(t.database);
  const superUser = await makeUser(t.database, 'super');
  const target = await makeUser(t.database, 'user', org.id);
  const superCookie = await signIn(t.app, superUser.email);
  const home = await signIn(t.app, superUser.email); // the super's other browser
  const started = await api.put(`/auth/impersonate/${target.id}`, superCookie);
  expect(started.statusCode).toBe(200);
  return { org, superUser, target, acting: cookieOf(started), home, targetCookie: await signIn(t.app, target.email) };
}

describe('impersonation sessions', () => {
  it("are the impersonator's: listed as theirs, hidden from the user acted as, who cannot end them", async () => {
    const { superUser, target, acting, home, targetCookie } = await impersonating();
    const mine = await listOf('/v2/sessions?mine=true', home);
    const impersonation = mine.find((s) => s.impersonatorId === superUser.id)!;
    expect(impersonation).toMatchObject({ userId: target.id });
    const theirs = await listOf('/v2/sessions', targetCookie);
    expect(theirs.map((s) => s.impersonatorId)).toEqual([null]);
    expect((await api.del(`/v2/sessions/${impersonation.id}`, targetCookie)).statusCode).toBe(404);
    expect((await api.del('/v2/sessions', targetCookie)).json().sessions).toEqual({});
    expect((await selfOf(acting)).impersonator).toBe(superUser.id);
  });

  it("end with the impersonator's sign-out everywhere", async () => {
    const { acting, home } = await impersonating();
    await api.del('/v2/sessions', home);
    expect((await selfOf(acting)).id).toBe(0);
  });

  it("end with the impersonator's password change", async () => {
    const { acting, home } = await impersonating();
    const changed = await api.post('/auth/password/change', home, {
      password: 'Corr3ct-horse!',
      newPassword: 'N3w-passw0rd!',
    });
    expect(changed.statusCode).toBe(200);
    expect((await selfOf(acting)).id).toBe(0);
  });

  it('end, sockets and all, when the impersonator is deactivated', async () => {
    const { superUser, acting } = await impersonating();
    const socket = await openSocket(base, { cookie: acting });
    await socket.next(isPush('version'));
    const root = await signIn(t.app, (await makeUser(t.database, 'root')).email);
    expect((await api.put(`/v2/users/${superUser.id}`, root, { isActive: false })).statusCode).toBe(200);
    expect((await socket.next(isPush('self')))[1]).toMatchObject({ self: { id: 0 } });
    await socket.closed;
    expect((await selfOf(acting)).id).toBe(0);
  });

  it("move a socket's subscriptions to what the impersonated user may see", async () => {
    const superUser = await makeUser(t.database, 'super');
    const watched = await makeOrganization(t.database);
    const targetOrg = await makeOrganization(t.database);
    const target = await makeUser(t.database, 'user', targetOrg.id);
    const cookie = await signIn(t.app, superUser.email);
    const socket = await openSocket(base, { cookie });
    socket.send(['subscribe', `organization:${watched.id}`]);
    await socket.next(isReply('subscribed'));
    expect((await api.put(`/auth/impersonate/${target.id}`, cookie)).statusCode).toBe(200);
    await socket.next(isPush('self'));
    socket.send(['subscribe', `self:${target.id}`]);
    await socket.next(isReply('subscribed', `self:${target.id}`));
    // Pushes arrive in order: once the marker is here, a push to the watched organization would be too.
    await t.app.hub.publish(`organization:${watched.id}`, { organizations: { [watched.id]: { id: watched.id } } });
    await t.app.hub.publish(`self:${target.id}`, { marker: true });
    await socket.next(isPush('marker'));
    expect(socket.messages.filter(isPush('organizations'))).toEqual([]);
    socket.ws.close();
  });
});
