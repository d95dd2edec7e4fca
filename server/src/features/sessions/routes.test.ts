/** /v2/sessions: own sessions, sign out everywhere else, and super's view of every live session. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { SESSION_MESSAGES } from './routes';

let t: TestApp;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

const selfOf = async (cookie: string) => (await api.get('/v2/self', cookie)).json().self;
type Entry = { id: number; userId: number; current: boolean; userEmail: string; organizationName: string };
const listOf = async (url: string, cookie: string) =>
  Object.values((await api.get(url, cookie)).json().sessions) as Entry[];

describe('/v2/sessions', () => {
  it("lists a user's own sessions, marks the current one, and never shows the token", async () => {
    const org = await makeOrganization(t.database, 'Listing Org');
    const me = await makeUser(t.database, 'user', org.id);
    const first = await signIn(t.app, me.email);
    await signIn(t.app, me.email);
    const other = await makeUser(t.database, 'user', org.id);
    await signIn(t.app, other.email);
    const res = await api.get('/v2/sessions', first);
    const mine = Object.values(res.json().sessions) as Entry[];
    expect(mine).toHaveLength(2);
    expect(mine.every((s) => s.userId === me.id)).toBe(true);
    expect(mine.filter((s) => s.current)).toHaveLength(1);
    expect(mine[0]).toMatchObject({ userEmail: me.email, organizationName: 'Listing Org', ip: '127.0.0.1' });
    expect(res.body).not.toMatch(/token/i);
  });

  it('ends one of my sessions, or all the others, and audits it', async () => {
    const me = await makeUser(t.database, 'user');
    const here = await signIn(t.app, me.email);
    const laptop = await signIn(t.app, me.email);
    const phone = await signIn(t.app, me.email);
    const laptopId = (await listOf('/v2/sessions', laptop)).find((s) => s.current)!.id;
    const ended = await api.del(`/v2/sessions/${laptopId}`, here);
    expect(ended.json().sessions[laptopId].deletedAt).toEqual(expect.any(String));
    expect((await selfOf(laptop)).id).toBe(0);
    expect((await api.del(`/v2/sessions/${laptopId}`, here)).statusCode).toBe(404);

    const everywhere = await api.del('/v2/sessions', here);
    expect(Object.keys(everywhere.json().sessions)).toHaveLength(1);
    expect((await selfOf(phone)).id).toBe(0);
    expect((await selfOf(here)).id).toBe(me.id);
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'session.revoke'), eq(auditLog.actorId, me.id)));
    expect(rows).toHaveLength(2);
  });

  it("lets super see every live session and end those of lower ranks, not of their peers or others' for users", async () => {
    const superUser = await makeUser(t.database, 'super');
    const superCookie = await signIn(t.app, superUser.email);
    const admin = await makeUser(t.database, 'admin');
    const adminCookie = await signIn(t.app, admin.email);
    const peer = await makeUser(t.database, 'super');
    const peerCookie = await signIn(t.app, peer.email);
    const all = await listOf('/v2/sessions', superCookie);
    const adminSession = all.find((s) => s.userId === admin.id)!;
    const peerSession = all.find((s) => s.userId === peer.id)!;
    expect(adminSession).toBeDefined();
    expect(await listOf('/v2/sessions?mine=true', superCookie)).toEqual([
      expect.objectContaining({ userId: superUser.id, current: true }),
    ]);
    expect((await api.del(`/v2/sessions/${peerSession.id}`, adminCookie)).statusCode).toBe(404);
    const refused = await api.del(`/v2/sessions/${peerSession.id}`, superCookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(SESSION_MESSAGES.revokeRefused);
    expect((await selfOf(peerCookie)).id).toBe(peer.id);
    expect((await api.del(`/v2/sessions/${adminSession.id}`, superCookie)).statusCode).toBe(200);
    expect((await selfOf(adminCookie)).id).toBe(0);
    expect((await api.get('/v2/sessions?mine=maybe', superCookie)).statusCode).toBe(400);
  });
});
