/**
 * /v2/ssh/* by outcome and rank (issue 20 item 3): staff (super+) register their own keys and get certificates
 * under a live grant; root manages host groups and grants; below super 403, signed out 401; another's key is 404
 * to super; every change is audited; the hosts' endpoint answers only live grants of the asked login, with the
 * group's token.
 */
import { randomUUID } from 'node:crypto';
import { SSH_MESSAGES } from '@tessera/common/ssh';
import { and, eq } from 'drizzle-orm';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sshGrants, users } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type Member, makeUser, signIn, type TestApp } from '../../test/harness';

let t: TestApp;
const api = consoleClient(() => t.app);
let root: Member;
let rootCookie: string;
let superUser: Member;
let superCookie: string;
let userCookie: string;

beforeAll(async () => {
  t = await buildTestApp();
  root = await makeUser(t.database, 'root');
  rootCookie = await signIn(t.app, root.email);
  superUser = await makeUser(t.database, 'super');
  superCookie = await signIn(t.app, superUser.email);
  userCookie = await signIn(t.app, (await makeUser(t.database, 'user')).email);
});
afterAll(() => t.app.close());

const newPublicKey = (comment = 'laptop') => {
  const key = sshpk.generatePrivateKey('ed25519').toPublic();
  key.comment = comment;
  return key.toString('ssh');
};
const groupName = () => `db-${randomUUID().slice(0, 8)}`;
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

async function addKey(cookie: string, publicKey = newPublicKey(), name = 'Laptop') {
  const res = await api.post('/v2/ssh/keys', cookie, { publicKey, name });
  expect(res.statusCode).toBe(201);
  return Object.values(res.json().sshKeys)[0] as { id: number; fingerprint: string; publicKey: string };
}
async function addGroup(name = groupName()) {
  const res = await api.post('/v2/ssh/groups', rootCookie, { name });
  expect(res.statusCode).toBe(201);
  return Object.values(res.json().sshHostGroups)[0] as { id: number; name: string; token: string };
}
async function addGrant(keyId: number, groupId: number, principal = 'postgres', expiresAt = inHours(24)) {
  const res = await api.post('/v2/ssh/grants', rootCookie, { keyId, groupId, principal, expiresAt });
  expect(res.statusCode).toBe(201);
  return Object.values(res.json().sshGrants)[0] as { id: number; expiresAt: string; revokedAt: string | null };
}
function hostAsk(group: string, user: string | null, token: string | null) {
  return t.app.inject({
    method: 'GET',
    url: `/v2/ssh/authorized_keys?group=${group}${user === null ? '' : `&user=${user}`}`,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
}
async function audited(action: string, targetId: number) {
  const rows = await t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))));
  return rows;
}

describe('/v2/ssh/keys', () => {
  it('super registers a key (201, fingerprint, audited), lists only their own; root lists everyone’s', async () => {
    const publicKey = newPublicKey('ada@laptop');
    const res = await api.post('/v2/ssh/keys', superCookie, { publicKey: `  ${publicKey}\n`, name: '' });
    expect(res.statusCode).toBe(201);
    const key = Object.values(res.json().sshKeys)[0] as Record<string, unknown>;
    const parsed = sshpk.parseKey(publicKey, 'ssh');
    expect(key).toMatchObject({
      userId: superUser.id,
      name: 'ada@laptop',
      type: 'ed25519',
      bits: 256,
      fingerprint: parsed.fingerprint('sha256').toString(),
      publicKey: publicKey.split(' ').slice(0, 2).join(' '),
    });
    expect(await audited('ssh.key.create', key.id as number)).toHaveLength(1);
    const rootKey = await addKey(rootCookie);
    const own = Object.keys((await api.get('/v2/ssh/keys', superCookie)).json().sshKeys).map(Number);
    expect(own).toContain(key.id);
    expect(own).not.toContain(rootKey.id);
    const all = Object.keys((await api.get('/v2/ssh/keys', rootCookie)).json().sshKeys).map(Number);
    expect(all).toEqual(expect.arrayContaining([key.id, rootKey.id]));
    expect((await api.get(`/v2/ssh/keys/${key.id}`, superCookie)).statusCode).toBe(200);
  });

  it('409 for a key already registered, by anyone', async () => {
    const publicKey = newPublicKey();
    await addKey(superCookie, publicKey);
    const again = await api.post('/v2/ssh/keys', rootCookie, { publicKey, name: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(SSH_MESSAGES.duplicate);
  });

  it('400 naming the problem: blank, unreadable, too long, unknown field', async () => {
    const blank = await api.post('/v2/ssh/keys', superCookie, { publicKey: '  ', name: 'x' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual([{ path: 'body.publicKey', message: SSH_MESSAGES.publicKey }]);
    const garbage = await api.post('/v2/ssh/keys', superCookie, { publicKey: 'ssh-ed25519 AAAAnotakey', name: 'x' });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toMatchObject({
      error: SSH_MESSAGES.unreadable,
      fields: [{ path: 'body.publicKey', message: SSH_MESSAGES.unreadable }],
    });
    const long = await api.post('/v2/ssh/keys', superCookie, { publicKey: 'a'.repeat(8001), name: 'x' });
    expect(long.json().fields[0].message).toBe(SSH_MESSAGES.publicKeyTooLong);
    expect((await api.post('/v2/ssh/keys', superCookie, { publicKey: newPublicKey(), extra: 1 })).statusCode).toBe(400);
  });

  it('another’s key is 404 to super; its owner and root delete it (200), which revokes its grants', async () => {
    const key = await addKey(rootCookie);
    expect((await api.get(`/v2/ssh/keys/${key.id}`, superCookie)).statusCode).toBe(404);
    const refused = await api.del(`/v2/ssh/keys/${key.id}`, superCookie);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toBe(SSH_MESSAGES.keyNotFound);

    const own = await addKey(superCookie);
    const group = await addGroup();
    const grant = await addGrant(own.id, group.id);
    const gone = await api.del(`/v2/ssh/keys/${own.id}`, superCookie);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().sshKeys[own.id].deletedAt).toEqual(expect.any(String));
    expect(gone.json().sshGrants[grant.id].revokedAt).toEqual(expect.any(String));
    expect(await audited('ssh.key.delete', own.id)).toHaveLength(1);
    expect((await api.get(`/v2/ssh/keys/${own.id}`, superCookie)).statusCode).toBe(404);
    expect((await api.del(`/v2/ssh/keys/${key.id}`, rootCookie)).statusCode).toBe(200);
    // The same key may be registered again once deleted.
    await addKey(superCookie, own.publicKey);
  });

  it('401 signed out, 403 below super, 400 for a bad id', async () => {
    expect((await api.get('/v2/ssh/keys', '')).statusCode).toBe(401);
    const forbidden = await api.post('/v2/ssh/keys', userCookie, { publicKey: newPublicKey() });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe(SSH_MESSAGES.staffOnly);
    expect((await api.get('/v2/ssh/keys', userCookie)).statusCode).toBe(403);
    expect((await api.del('/v2/ssh/keys/1', userCookie)).statusCode).toBe(403);
    expect((await api.get('/v2/ssh/keys/abc', superCookie)).statusCode).toBe(400);
  });
});

describe('/v2/ssh/groups', () => {
  it('root creates a group (201) with its token once; lists show only the last four; audited', async () => {
    const group = await addGroup();
    expect(group.token).toMatch(/^tsh_[A-Za-z0-9_-]{43}$/);
    const listed = (await api.get('/v2/ssh/groups', rootCookie)).json().sshHostGroups[group.id];
    expect(listed).toEqual({
      id: group.id,
      name: group.name,
      tokenLastFour: group.token.slice(-4),
      createdAt: expect.any(String),
    });
    expect(await audited('ssh.group.create', group.id)).toHaveLength(1);
    expect(JSON.stringify(await audited('ssh.group.create', group.id))).not.toContain(group.token);
  });

  it('409 for a name in use, 400 for a bad name, 404 deleting an unknown one', async () => {
    const group = await addGroup();
    const taken = await api.post('/v2/ssh/groups', rootCookie, { name: group.name });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(SSH_MESSAGES.groupTaken(group.name));
    const bad = await api.post('/v2/ssh/groups', rootCookie, { name: 'Prod DB!' });
    expect(bad.json().fields).toEqual([{ path: 'body.name', message: SSH_MESSAGES.groupName }]);
    expect((await api.del('/v2/ssh/groups/2147483000', rootCookie)).statusCode).toBe(404);
  });

  it('deleting a group (200) revokes its grants and its token stops working', async () => {
    const group = await addGroup();
    const key = await addKey(superCookie);
    const grant = await addGrant(key.id, group.id);
    const res = await api.del(`/v2/ssh/groups/${group.id}`, rootCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().sshGrants[grant.id].revokedAt).toEqual(expect.any(String));
    expect((await hostAsk(group.name, 'postgres', group.token)).statusCode).toBe(401);
    // The name is free again.
    await addGroup(group.name);
  });

  it('super reaching a root call: 403; user 403; signed out 401', async () => {
    for (const cookie of [superCookie, userCookie]) {
      const res = await api.get('/v2/ssh/groups', cookie);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe(SSH_MESSAGES.rootOnly);
      expect((await api.post('/v2/ssh/groups', cookie, { name: groupName() })).statusCode).toBe(403);
      expect((await api.del('/v2/ssh/groups/1', cookie)).statusCode).toBe(403);
    }
    expect((await api.get('/v2/ssh/groups', '')).statusCode).toBe(401);
  });
});

describe('/v2/ssh/grants', () => {
  it('root grants a key to a group as a login until an expiry (201), revokes it (200); both audited', async () => {
    const key = await addKey(superCookie);
    const group = await addGroup();
    const expiresAt = inHours(8);
    const grant = await addGrant(key.id, group.id, 'deploy', expiresAt);
    expect(grant).toMatchObject({ keyId: key.id, groupId: group.id, principal: 'deploy', expiresAt, revokedAt: null });
    expect((await api.get('/v2/ssh/grants', rootCookie)).json().sshGrants[grant.id]).toEqual(grant);
    expect((await audited('ssh.grant.create', grant.id))[0]!.detail).toMatchObject({
      keyId: key.id,
      group: group.name,
      principal: 'deploy',
    });
    const revoked = await api.del(`/v2/ssh/grants/${grant.id}`, rootCookie);
    expect(revoked.statusCode).toBe(200);
    const revokedAt = revoked.json().sshGrants[grant.id].revokedAt;
    expect(Date.parse(revokedAt)).toBeGreaterThan(Date.now() - 60_000);
    // Revoking again changes nothing.
    const again = await api.del(`/v2/ssh/grants/${grant.id}`, rootCookie);
    expect(again.json().sshGrants[grant.id].revokedAt).toBe(revokedAt);
    expect(await audited('ssh.grant.revoke', grant.id)).toHaveLength(1);
  });

  it('400 naming each bad field; 404 for an unknown key, group or grant', async () => {
    const key = await addKey(superCookie);
    const group = await addGroup();
    const bad = await api.post('/v2/ssh/grants', rootCookie, {
      keyId: key.id,
      groupId: group.id,
      principal: 'Root User',
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual([
      { path: 'body.principal', message: SSH_MESSAGES.principal },
      { path: 'body.expiresAt', message: SSH_MESSAGES.expiresPast },
    ]);
    const far = await api.post('/v2/ssh/grants', rootCookie, {
      keyId: key.id,
      groupId: group.id,
      principal: 'root',
      expiresAt: inHours(367 * 24),
    });
    expect(far.json().fields).toEqual([{ path: 'body.expiresAt', message: SSH_MESSAGES.expiresTooFar }]);
    const notDate = await api.post('/v2/ssh/grants', rootCookie, {
      keyId: key.id,
      groupId: group.id,
      principal: 'root',
      expiresAt: 'tomorrow',
    });
    expect(notDate.json().fields[0].path).toBe('body.expiresAt');
    const body = { principal: 'root', expiresAt: inHours(1) };
    const noKey = await api.post('/v2/ssh/grants', rootCookie, { ...body, keyId: 2147483000, groupId: group.id });
    expect(noKey.statusCode).toBe(404);
    expect(noKey.json().error).toBe(SSH_MESSAGES.keyNotFound);
    const noGroup = await api.post('/v2/ssh/grants', rootCookie, { ...body, keyId: key.id, groupId: 2147483000 });
    expect(noGroup.json().error).toBe(SSH_MESSAGES.groupNotFound);
    expect((await api.del('/v2/ssh/grants/2147483000', rootCookie)).statusCode).toBe(404);
  });

  it('super reaching a root call: 403; user 403; signed out 401', async () => {
    for (const cookie of [superCookie, userCookie]) {
      expect((await api.get('/v2/ssh/grants', cookie)).statusCode).toBe(403);
      const body = { keyId: 1, groupId: 1, principal: 'root', expiresAt: inHours(1) };
      const res = await api.post('/v2/ssh/grants', cookie, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe(SSH_MESSAGES.rootOnly);
      expect((await api.del('/v2/ssh/grants/1', cookie)).statusCode).toBe(403);
    }
    const body = { keyId: 1, groupId: 1, principal: 'root', expiresAt: inHours(1) };
    expect((await api.post('/v2/ssh/grants', '', body)).statusCode).toBe(401);
  });
});

describe('GET /v2/ssh/authorized_keys', () => {
  it('answers the live grants of the asked login with expiry-time, and nothing else', async () => {
    const group = await addGroup();
    const other = await addGroup();
    const [a, b, c, d, e] = [
      await addKey(superCookie),
      await addKey(rootCookie),
      await addKey(superCookie),
      await addKey(superCookie),
      await addKey(superCookie),
    ];
    const until = new Date(Date.now() + 300 * 86_400_000);
    until.setUTCHours(7, 8, 9, 0);
    const live = await addGrant(a.id, group.id, 'postgres', until.toISOString());
    const stamp = (iso: string) => `${iso.slice(0, 19).replace(/[-T:]/g, '')}Z`;
    const liveToo = await addGrant(b.id, group.id, 'postgres');
    await addGrant(c.id, group.id, 'deploy'); // another login
    await addGrant(c.id, other.id, 'postgres'); // another group
    const revoked = await addGrant(d.id, group.id, 'postgres');
    await api.del(`/v2/ssh/grants/${revoked.id}`, rootCookie);
    const expired = await addGrant(e.id, group.id, 'postgres');
    await t.database.db
      .update(sshGrants)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sshGrants.id, expired.id));

    const res = await hostAsk(group.name, 'postgres', group.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toBe(
      `expiry-time="${stamp(until.toISOString())}" ${a.publicKey} tessera-grant-${live.id}\n` +
        `expiry-time="${stamp(liveToo.expiresAt)}" ${b.publicKey} tessera-grant-${liveToo.id}\n`,
    );
    expect((await hostAsk(group.name, 'nobody', group.token)).body).toBe('');
  });

  it('leaves out the keys of an owner who is no longer staff', async () => {
    const group = await addGroup();
    const owner = await makeUser(t.database, 'super');
    const key = await addKey(await signIn(t.app, owner.email));
    await addGrant(key.id, group.id, 'postgres');
    expect((await hostAsk(group.name, 'postgres', group.token)).body).toContain(key.publicKey);
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, owner.id));
    expect((await hostAsk(group.name, 'postgres', group.token)).body).toBe('');
  });

  it('401 without the token, with a wrong one or another group’s; 400 without the login', async () => {
    const group = await addGroup();
    const other = await addGroup();
    const none = await hostAsk(group.name, 'postgres', null);
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe(SSH_MESSAGES.tokenMissing);
    const wrong = await hostAsk(group.name, 'postgres', other.token);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe(SSH_MESSAGES.tokenWrong);
    expect((await hostAsk('no-such-group', 'postgres', group.token)).json().error).toBe(SSH_MESSAGES.tokenWrong);
    const noUser = await hostAsk(group.name, null, group.token);
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json().fields).toEqual([{ path: 'querystring.user', message: SSH_MESSAGES.userMissing }]);
    expect((await hostAsk(group.name, 'Bad User', group.token)).statusCode).toBe(400);
    // A console session is no host's credential.
    expect((await api.get(`/v2/ssh/authorized_keys?group=${group.name}&user=root`, rootCookie)).statusCode).toBe(401);
    expect(t.logs.join('\n')).not.toContain(group.token);
  });
});

describe('/v2/ssh/certificates and /v2/ssh/ca', () => {
  it('the key’s owner gets a certificate for a live grant (201), within the hours and the grant; audited', async () => {
    const key = await addKey(superCookie);
    const group = await addGroup();
    const grant = await addGrant(key.id, group.id, 'postgres', inHours(2));
    const res = await api.post('/v2/ssh/certificates', superCookie, { keyId: key.id, grantId: grant.id, hours: 24 });
    expect(res.statusCode).toBe(201);
    const cert = Object.values(res.json().sshCertificates)[0] as Record<string, string | number>;
    expect(cert).toMatchObject({ keyId: key.id, grantId: grant.id, principal: 'postgres' });
    // Never past the grant's expiry.
    expect(cert.validBefore).toBe(grant.expiresAt);
    const parsed = sshpk.parseCertificate(cert.certificate as string, 'openssh');
    expect(parsed.subjects.map((s) => s.uid)).toEqual(['postgres']);
    const ca = (await api.get('/v2/ssh/ca', rootCookie)).json().sshCa;
    expect(parsed.isSignedByKey(sshpk.parseKey(ca.publicKey, 'ssh'))).toBe(true);
    expect(ca.fingerprint).toBe(sshpk.parseKey(ca.publicKey, 'ssh').fingerprint('sha256').toString());
    expect(await audited('ssh.certificate.issue', cert.id as number)).toHaveLength(1);
    // Root may get one for anyone's key.
    const byRoot = await api.post('/v2/ssh/certificates', rootCookie, { keyId: key.id, grantId: grant.id, hours: 1 });
    expect(byRoot.statusCode).toBe(201);
  });

  it('400 for hours out of range or another key’s grant, 409 for a grant over, 404 for another’s key', async () => {
    const key = await addKey(superCookie);
    const otherKey = await addKey(superCookie);
    const group = await addGroup();
    const grant = await addGrant(key.id, group.id);
    const post = (body: object, cookie = superCookie) => api.post('/v2/ssh/certificates', cookie, body);
    for (const hours of [0, 25, 1.5, '2']) {
      const res = await post({ keyId: key.id, grantId: grant.id, hours });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([{ path: 'body.hours', message: SSH_MESSAGES.hours }]);
    }
    const otherGrant = await post({ keyId: otherKey.id, grantId: grant.id, hours: 1 });
    expect(otherGrant.statusCode).toBe(400);
    expect(otherGrant.json().error).toBe(SSH_MESSAGES.grantOtherKey);
    await api.del(`/v2/ssh/grants/${grant.id}`, rootCookie);
    const over = await post({ keyId: key.id, grantId: grant.id, hours: 1 });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toBe(SSH_MESSAGES.grantNotLive);
    const rootsKey = await addKey(rootCookie);
    const rootsGrant = await addGrant(rootsKey.id, group.id);
    expect((await post({ keyId: rootsKey.id, grantId: rootsGrant.id, hours: 1 })).statusCode).toBe(404);
    expect((await post({ keyId: key.id, grantId: 2147483000, hours: 1 })).statusCode).toBe(404);
  });

  it('user 403, signed out 401; the CA is root’s: super 403', async () => {
    const body = { keyId: 1, grantId: 1, hours: 1 };
    expect((await api.post('/v2/ssh/certificates', userCookie, body)).statusCode).toBe(403);
    expect((await api.post('/v2/ssh/certificates', '', body)).statusCode).toBe(401);
    const ca = await api.get('/v2/ssh/ca', superCookie);
    expect(ca.statusCode).toBe(403);
    expect(ca.json().error).toBe(SSH_MESSAGES.rootOnly);
  });
});
