/** /v2/organizations: isolation, the domain rules, and deletion (decision 0007). */
import { MESSAGES } from '@tessera/common/validation';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeAccount, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { ORGANIZATION_MESSAGES } from './routes';

let t: TestApp;
const api = consoleClient(() => t.app);
let superCookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  superCookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});
afterAll(() => t.app.close());

const domain = () => `d${Math.random().toString(36).slice(2, 10)}.example`;

describe('/v2/organizations', () => {
  it('creates an organization with a lowercase domain and audits it', async () => {
    const name = domain();
    const res = await api.post('/v2/organizations', superCookie, { name: 'Acme', emailDomain: name.toUpperCase() });
    expect(res.statusCode).toBe(200);
    const [created] = Object.values(res.json().organizations) as { id: number; emailDomain: string }[];
    expect(created).toMatchObject({ name: 'Acme', emailDomain: name, acceptUsers: false });
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'organization.create'), eq(auditLog.targetId, String(created!.id))));
    expect(rows).toHaveLength(1);
  });

  it('refuses a taken domain, a malformed one, a blank name, and accepting users without a domain', async () => {
    const taken = domain();
    await makeOrganization(t.database, 'Holder', { emailDomain: taken });
    const dup = await api.post('/v2/organizations', superCookie, { name: 'Copy', emailDomain: taken.toUpperCase() });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe(ORGANIZATION_MESSAGES.domainTaken(taken));
    const bad = await api.post('/v2/organizations', superCookie, { name: 'Bad', emailDomain: 'not a domain' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toContainEqual({ path: 'body.emailDomain', message: MESSAGES.domain });
    const blank = await api.post('/v2/organizations', superCookie, { name: '  ' });
    expect(blank.json().fields).toContainEqual({ path: 'body.name', message: MESSAGES.required('a name') });
    const open = await api.post('/v2/organizations', superCookie, { name: 'Open', acceptUsers: true });
    expect(open.statusCode).toBe(400);
    expect(open.json().error).toBe(ORGANIZATION_MESSAGES.domainNeeded);
  });

  it('lists every organization for super and only their own for others, with its members', async () => {
    const mine = await makeOrganization(t.database);
    const theirs = await makeOrganization(t.database);
    const member = await makeUser(t.database, 'user', mine.id);
    const stranger = await makeAccount(t.database, 'user', theirs.id);
    const cookie = await signIn(t.app, member.email);
    expect(Object.keys((await api.get('/v2/organizations', cookie)).json().organizations)).toEqual([String(mine.id)]);
    const all = Object.keys((await api.get('/v2/organizations', superCookie)).json().organizations);
    expect(all).toEqual(expect.arrayContaining([String(mine.id), String(theirs.id)]));
    const detail = (await api.get(`/v2/organizations/${theirs.id}`, superCookie)).json();
    expect(Object.keys(detail.users)).toEqual([String(stranger.id)]);
    expect(detail.users[stranger.id]).not.toHaveProperty('passwordHash');
    const refused = await api.get(`/v2/organizations/${theirs.id}`, cookie);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toBe('No such organization.');
  });

  it('lets an administrator edit their organization but not its e-mail domain', async () => {
    const org = await makeOrganization(t.database, 'Mine', { emailDomain: domain() });
    const admin = await signIn(t.app, (await makeUser(t.database, 'admin', org.id)).email);
    const ok = await api.put(`/v2/organizations/${org.id}`, admin, {
      name: 'Renamed',
      acceptUsers: true,
      emailDomain: org.emailDomain,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().organizations[org.id]).toMatchObject({ name: 'Renamed', acceptUsers: true });
    const moved = await api.put(`/v2/organizations/${org.id}`, admin, { emailDomain: domain() });
    expect(moved.statusCode).toBe(403);
    expect(moved.json().error).toBe(ORGANIZATION_MESSAGES.domainIsSystems);
    const bySuper = await api.put(`/v2/organizations/${org.id}`, superCookie, { emailDomain: '', acceptUsers: false });
    expect(bySuper.json().organizations[org.id]).toMatchObject({ emailDomain: null, acceptUsers: false });
    const closed = await api.put(`/v2/organizations/${org.id}`, superCookie, { acceptUsers: true });
    expect(closed.statusCode).toBe(400);
    expect(closed.json().error).toBe(ORGANIZATION_MESSAGES.domainNeeded);
    expect((await api.put('/v2/organizations/99999999', superCookie, { name: 'X' })).statusCode).toBe(404);
    expect((await api.put('/v2/organizations/abc', superCookie, { name: 'X' })).statusCode).toBe(400);
  });

  it('deletes only an organization without users, and a deleted one is gone', async () => {
    const org = await makeOrganization(t.database);
    const member = await makeAccount(t.database, 'user', org.id);
    const busy = await api.del(`/v2/organizations/${org.id}`, superCookie);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error).toBe(ORGANIZATION_MESSAGES.hasMembers);
    expect((await api.del(`/v2/users/${member.id}`, superCookie)).statusCode).toBe(200);
    const gone = await api.del(`/v2/organizations/${org.id}`, superCookie);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().organizations[org.id].deletedAt).toEqual(expect.any(String));
    expect((await api.get(`/v2/organizations/${org.id}`, superCookie)).statusCode).toBe(404);
    expect((await api.del(`/v2/organizations/${org.id}`, superCookie)).statusCode).toBe(404);
    expect(Object.keys((await api.get('/v2/organizations', superCookie)).json().organizations)).not.toContain(
      String(org.id),
    );
  });
});
