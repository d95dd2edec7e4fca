/**
 * Usage pushes (issue 16): a served call is told to its caller's consoles and to their organization's
 * administrators within a second or so, never to a plain member of the organization; many calls make one push.
 */
import type { ServerMessage } from '@tessera/common/socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { isReply, openSocket } from '../../test/socket-client';
import { load, person } from '../identities/test-people';

let t: TestApp;
let base: string;
const api = consoleClient(() => t.app);
const p = person();
beforeAll(async () => {
  t = await buildTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  await load(t.database, p);
});
afterAll(() => t.app.close());

type Usage = Record<string, { id: number; lastCallAt: string }>;
const usagePush = (userId: number) => (m: ServerMessage) =>
  m[0] === 'push' && 'usage' in m[1] && String(userId) in (m[1].usage as Usage);

async function listen(email: string, id: number, channel: string) {
  const cookie = await signIn(t.app, email);
  const s = await openSocket(base, { cookie });
  for (const c of [`self:${id}`, channel]) {
    s.send(['subscribe', c]);
    await s.next(isReply('subscribed', c));
  }
  return { s, cookie };
}

describe('usage pushes', () => {
  it('reach the caller and the administrators, not a plain member, in fewer pushes than calls', async () => {
    const org = await makeOrganization(t.database);
    await makeContract(t.database, org.id);
    const caller = await makeUser(t.database, 'user', org.id);
    const admin = await makeUser(t.database, 'admin', org.id);
    const member = await makeUser(t.database, 'user', org.id);
    const channel = `organization:${org.id}`;
    const own = await listen(caller.email, caller.id, channel);
    const boss = await listen(admin.email, admin.id, channel);
    const peer = await listen(member.email, member.id, channel);
    const made = await api.post('/v2/keys', own.cookie, { name: 'live' });
    const key = Object.values(made.json().keys)[0] as { id: string; secret: string };

    const calls = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.inject({
          method: 'GET',
          url: `/v2/identities/byId?id=${p.id}`,
          headers: { authorization: `Bearer ${key.id}${key.secret}` },
        }),
      ),
    );
    expect(calls.map((c) => c.statusCode)).toEqual(Array(10).fill(200));
    const pushed = await boss.s.next(usagePush(caller.id), 5000);
    const usage = (pushed[1] as { usage: Usage }).usage[caller.id]!;
    expect(usage.id).toBe(caller.id);
    expect(Date.parse(usage.lastCallAt)).toBeGreaterThan(Date.now() - 10_000);
    await own.s.next(usagePush(caller.id), 5000);
    // Ten calls made together are told in fewer pushes than calls (one a second per channel).
    await expect(peer.s.next(usagePush(caller.id), 1500)).rejects.toThrow();
    expect(own.s.messages.filter(usagePush(caller.id)).length).toBeLessThan(9);
    for (const l of [own, boss, peer]) l.s.ws.close();
  });
});
