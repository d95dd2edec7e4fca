/**
 * The page that opened an e-mailed link holds a socket on the link's session. Setting the password hands that
 * socket over to the new session (it is not told "Signed Out"), while the user's other browsers are signed out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient, cookieOf } from '../../test/console-client';
import { buildTestApp, CONSOLE_HEADERS, makeUser, signIn, type TestApp } from '../../test/harness';
import { isPush, openSocket } from '../../test/socket-client';
import { issueToken } from '../email-tokens/service';

let t: TestApp;
let base: string;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.app.close());

async function openLink(userId: number, purpose: 'set' | 'reset') {
  const token = await issueToken(t.database.db, userId, purpose);
  const opened = await t.app.inject({
    method: 'POST',
    url: '/auth/link',
    headers: CONSOLE_HEADERS,
    payload: { token },
  });
  return cookieOf(opened);
}

describe("a link page's socket", () => {
  it('follows the new session after setting a password, while other browsers are signed out', async () => {
    const member = await makeUser(t.database, 'user', null, { acceptTerms: false });
    const elsewhere = await signIn(t.app, member.email);
    const other = await openSocket(base, { cookie: elsewhere });
    const link = await openLink(member.id, 'set');
    const page = await openSocket(base, { cookie: link });

    const set = await api.post('/auth/password/set', link, { newPassword: 'N3w-passw0rd!' });
    expect(set.statusCode).toBe(200);
    const pushed = await page.next(isPush('self'));
    expect((pushed[1] as { self: { id: number; role: string } }).self).toMatchObject({ id: member.id, role: 'signer' });
    expect(page.ws.readyState).toBe(page.ws.OPEN);
    expect((await other.next(isPush('self')))[1]).toMatchObject({ self: { id: 0 } });
    await other.closed;
    page.ws.close();
  });

  it('after a reset ends the link session without a "Signed Out" push to that page', async () => {
    const member = await makeUser(t.database, 'user');
    const link = await openLink(member.id, 'reset');
    const page = await openSocket(base, { cookie: link });
    const reset = await api.post('/auth/password/reset', link, { newPassword: 'N3w-passw0rd!' });
    expect(reset.json()).toMatchObject({ self: { id: 0 }, location: '/login' });
    expect((await api.get('/v2/self', link)).json().self.id).toBe(0);
    expect(page.messages.filter(isPush('self'))).toEqual([]);
    page.ws.close();
  });
});
