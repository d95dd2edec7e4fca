/** /v2/users: the spec §6 rules on the server, the set-password mail, sessions ended by changes, and pictures. */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { MESSAGES } from '@tessera/common/validation';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, identities, images, users } from '../../db/schema';
import { consoleClient, cookieOf } from '../../test/console-client';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  makeAccount,
  makeOrganization,
  makeUser,
  multipartFile,
  newAddress,
  PNG_PIXEL,
  signIn,
  type TestApp,
  uniqueDomain,
} from '../../test/harness';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { IMAGE_MESSAGES } from '../images/store';
import { THROTTLE_RULES } from '../throttle/rules';
import { USER_MESSAGES } from './manage';

let t: TestApp;
let smtp: TestSmtpServer;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://console.tessera.example' } });
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
});

const selfOf = async (cookie: string) => (await api.get('/v2/self', cookie)).json().self;

async function orgWithAdmin() {
  const org = await makeOrganization(t.database, undefined, { emailDomain: uniqueDomain() });
  const admin = await makeUser(t.database, 'admin', org.id);
  return { org, admin, cookie: await signIn(t.app, admin.email) };
}

describe('creating users', () => {
  it('an administrator adds a user to their organization, who gets a set-password link that verifies them', async () => {
    const { org, cookie } = await orgWithAdmin();
    const email = await newAddress(t.database, 'new', org.id);
    const res = await api.post('/v2/users', cookie, { email, name: 'New Person', title: 'Analyst', role: 'user' });
    expect(res.statusCode).toBe(200);
    const entry = Object.values(res.json().users)[0] as { id: number };
    expect(entry).toMatchObject({ email, role: 'user', organizationId: org.id, verifiedAt: null, isActive: true });

    await t.app.mailer.drain();
    const mail = smtp.received.filter((m) => m.recipients.includes(email)).map((m) => parseMail(m.raw))[0];
    const token = /\/password\/set\?token=([A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
    expect(token).toBeTruthy();
    const opened = await t.app.inject({
      method: 'POST',
      url: '/auth/link',
      headers: CONSOLE_HEADERS,
      payload: { token },
    });
    expect(opened.json().self).toMatchObject({ email, role: 'resetter' });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, entry.id));
    expect(row!.verifiedAt).not.toBeNull();
    const set = await api.post('/auth/password/set', cookieOf(opened), { newPassword: 'N3w-passw0rd!' });
    expect(set.statusCode).toBe(200);
  });

  it('refuses roles at or above the creator, half states, a taken address, another organization and bad fields', async () => {
    const { org, cookie } = await orgWithAdmin();
    const other = await makeOrganization(t.database, undefined, { emailDomain: uniqueDomain() });
    const base = { email: await newAddress(t.database, 'x', org.id), name: 'X', role: 'user' };
    const high = await api.post('/v2/users', cookie, { ...base, role: 'admin' });
    expect(high.statusCode).toBe(403);
    expect(high.json().error).toBe(USER_MESSAGES.roleTooHigh);
    expect((await api.post('/v2/users', cookie, { ...base, role: 'signer' })).statusCode).toBe(400);
    const existing = await makeAccount(t.database, 'user', org.id);
    const taken = await api.post('/v2/users', cookie, { ...base, email: existing.email.toUpperCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(ACCOUNT_MESSAGES.existingUser(existing.email.toUpperCase()));
    expect((await api.post('/v2/users', cookie, { ...base, organizationId: other.id })).statusCode).toBe(404);
    // An administrator adds addresses of their organization's domain only, so none is claimed before its owner.
    const elsewhere = await api.post('/v2/users', cookie, { ...base, email: `ceo@${other.emailDomain}` });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().error).toBe(USER_MESSAGES.outsideDomain(org.emailDomain!));
    const bare = await makeOrganization(t.database);
    const bareAdmin = await signIn(t.app, (await makeUser(t.database, 'admin', bare.id)).email);
    const noDomain = await api.post('/v2/users', bareAdmin, { ...base, email: 'someone@tessera.test' });
    expect(noDomain.json().error).toBe(USER_MESSAGES.noDomain);
    const nowhere = await api.post('/v2/users', cookie, { ...base, organizationId: null });
    expect(nowhere.statusCode).toBe(403);
    expect(nowhere.json().error).toBe(USER_MESSAGES.noOrganization);
    const bad = await api.post('/v2/users', cookie, { ...base, email: 'nope', name: ' ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'body.email', message: MESSAGES.email },
        { path: 'body.name', message: MESSAGES.required('a name') },
      ]),
    );
  });
});

describe('editing users', () => {
  it('anyone edits their own name and title, and the reply carries their new self', async () => {
    const org = await makeOrganization(t.database);
    const me = await makeUser(t.database, 'user', org.id);
    const cookie = await signIn(t.app, me.email);
    const res = await api.put(`/v2/users/${me.id}`, cookie, { name: 'Ada Lovelace', title: 'Analyst' });
    expect(res.statusCode).toBe(200);
    expect(res.json().self).toMatchObject({ id: me.id, name: 'Ada Lovelace', title: 'Analyst' });
    expect(await selfOf(cookie)).toMatchObject({ name: 'Ada Lovelace' }); // the session goes on
    const own = await api.put(`/v2/users/${me.id}`, cookie, { role: 'admin' });
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe(USER_MESSAGES.ownStanding);
  });

  it('edits only strictly lower ranks, gives only roles below the editor, and moves users only as super', async () => {
    const { org, cookie } = await orgWithAdmin();
    const peer = await makeAccount(t.database, 'admin', org.id);
    const boss = await makeAccount(t.database, 'super', org.id);
    const user = await makeAccount(t.database, 'user', org.id);
    expect((await api.put(`/v2/users/${peer.id}`, cookie, { name: 'P' })).json().error).toBe(USER_MESSAGES.editRefused);
    expect((await api.put(`/v2/users/${boss.id}`, cookie, { name: 'B' })).statusCode).toBe(403);
    const raise = await api.put(`/v2/users/${user.id}`, cookie, { role: 'admin' });
    expect(raise.json().error).toBe(USER_MESSAGES.roleTooHigh);
    const other = await makeOrganization(t.database);
    const move = await api.put(`/v2/users/${user.id}`, cookie, { organizationId: other.id });
    expect(move.json().error).toBe(USER_MESSAGES.moveRefused);
    const superCookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
    const mover = await makeAccount(t.database, 'user', org.id);
    const toNowhere = await api.put(`/v2/users/${mover.id}`, superCookie, { organizationId: 2_000_000_000 });
    expect(toNowhere.statusCode).toBe(404);
    expect(toNowhere.json().error).toBe('No such organization.');
    const moved = await api.put(`/v2/users/${mover.id}`, superCookie, { organizationId: other.id });
    expect(moved.json().users[mover.id]).toMatchObject({ organizationId: other.id, organizationName: other.name });
    const types = await api.put(`/v2/users/${user.id}`, cookie, { allowedRecordTypes: ['emails', 'emails', 'phones'] });
    expect(types.json().users[user.id].allowedRecordTypes).toEqual(['emails', 'phones']);
    const unknown = await api.put(`/v2/users/${user.id}`, cookie, { allowedRecordTypes: ['secrets'] });
    expect(unknown.statusCode).toBe(400);
    expect((await api.put(`/v2/users/${user.id}`, cookie, { image: 'https://evil.example/x.png' })).statusCode).toBe(
      400,
    );
  });

  it("a role change ends the user's sessions and is audited with both roles", async () => {
    const org = await makeOrganization(t.database);
    const member = await makeUser(t.database, 'user', org.id);
    const memberCookie = await signIn(t.app, member.email);
    const superUser = await makeUser(t.database, 'super');
    const res = await api.put(`/v2/users/${member.id}`, await signIn(t.app, superUser.email), { role: 'admin' });
    expect(res.json().users[member.id].role).toBe('admin');
    expect((await selfOf(memberCookie)).id).toBe(0);
    expect((await selfOf(await signIn(t.app, member.email))).role).toBe('admin');
    const [row] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'role.change'), eq(auditLog.targetId, String(member.id))));
    expect(row).toMatchObject({ actorId: superUser.id, detail: { from: 'user', to: 'admin' } });
  });

  it('a deactivated user is signed out and cannot sign in', async () => {
    const { org, cookie } = await orgWithAdmin();
    const member = await makeUser(t.database, 'user', org.id);
    const memberCookie = await signIn(t.app, member.email);
    expect((await api.put(`/v2/users/${member.id}`, cookie, { isActive: false })).statusCode).toBe(200);
    expect((await selfOf(memberCookie)).id).toBe(0);
    await expect(signIn(t.app, member.email)).rejects.toThrow(/401/);
  });
});

describe('deleting users', () => {
  it('deletes a lower rank in the same organization: signed out, links to providers removed, address free again', async () => {
    const { org, cookie } = await orgWithAdmin();
    const member = await makeUser(t.database, 'user', org.id);
    const memberCookie = await signIn(t.app, member.email);
    await t.database.db.insert(identities).values({ provider: 'google', subject: `s-${member.id}`, userId: member.id });
    const res = await api.del(`/v2/users/${member.id}`, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().users[member.id].deletedAt).toEqual(expect.any(String));
    expect((await selfOf(memberCookie)).id).toBe(0);
    expect(await t.database.db.select().from(identities).where(eq(identities.userId, member.id))).toEqual([]);
    expect((await api.get(`/v2/users/${member.id}`, cookie)).statusCode).toBe(404);
    const again = await api.post('/v2/users', cookie, { email: member.email, name: 'Back', role: 'user' });
    expect(again.statusCode).toBe(200);
  });

  it('refuses equal or higher ranks and oneself', async () => {
    const { org, admin, cookie } = await orgWithAdmin();
    const peer = await makeAccount(t.database, 'admin', org.id);
    const refused = await api.del(`/v2/users/${peer.id}`, cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(USER_MESSAGES.deleteRefused);
    expect((await api.del(`/v2/users/${admin.id}`, cookie)).statusCode).toBe(403);
  });
});

describe('pictures', () => {
  it('stores an uploaded picture under its content hash and serves it to signed-in users only', async () => {
    const org = await makeOrganization(t.database);
    const me = await makeUser(t.database, 'user', org.id);
    const cookie = await signIn(t.app, me.email);
    const upload = (body: ReturnType<typeof multipartFile>) =>
      t.app.inject({
        method: 'POST',
        url: `/v2/users/${me.id}/image`,
        headers: { ...body.headers, cookie },
        payload: body.payload,
      });
    const res = await upload(multipartFile(PNG_PIXEL, { filename: 'anything.txt', type: 'text/plain' }));
    expect(res.statusCode).toBe(200);
    const image = res.json().self.image as string;
    expect(image).toMatch(/^\/v2\/images\/[A-Za-z0-9_-]{43}\.png$/);
    const served = await api.get(image, cookie);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG_PIXEL)).toBe(true);
    expect((await api.get(image, '')).statusCode).toBe(401);
    expect((await api.get('/v2/images/..%2F..%2Fetc%2Fpasswd', cookie)).statusCode).toBe(404);

    const svg = await upload(multipartFile(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>')));
    expect(svg.statusCode).toBe(400);
    expect(svg.json().error).toBe(IMAGE_MESSAGES.badType);
    const big = await upload(multipartFile(Buffer.concat([PNG_PIXEL, Buffer.alloc(1_000_001)])));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe(IMAGE_MESSAGES.tooLarge);
    const wrongField = await upload(multipartFile(PNG_PIXEL, { field: 'picture' }));
    expect(wrongField.json().error).toBe(IMAGE_MESSAGES.missing);
    const notMultipart = await api.post(`/v2/users/${me.id}/image`, cookie, { file: 'x' });
    expect(notMultipart.statusCode).toBe(400);
    // Bodies cut off in a part's headers and inside the file: the client's to send again, never a 500.
    const whole = multipartFile(PNG_PIXEL);
    const text = whole.payload.toString('latin1');
    for (const cut of [text.indexOf('Content-Type') + 5, text.indexOf('\r\n\r\n') + 10]) {
      const truncated = await t.app.inject({
        method: 'POST',
        url: `/v2/users/${me.id}/image`,
        headers: { ...whole.headers, cookie },
        payload: whole.payload.subarray(0, cut),
      });
      expect([truncated.statusCode, truncated.json().error]).toEqual([400, IMAGE_MESSAGES.malformed]);
    }
    const cleared = await api.put(`/v2/users/${me.id}`, cookie, { image: '' });
    expect(cleared.json().self.image).toBe('');
  });

  it('keeps only pictures someone shows, and limits uploads per user', async () => {
    const me = await makeUser(t.database, 'user');
    const cookie = await signIn(t.app, me.email);
    const upload = (bytes: Buffer) => {
      const body = multipartFile(bytes);
      return t.app.inject({
        method: 'POST',
        url: `/v2/users/${me.id}/image`,
        headers: { ...body.headers, cookie },
        payload: body.payload,
      });
    };
    const stored = async () => (await t.database.db.select({ name: images.name }).from(images)).map((r) => r.name);
    const first = (await upload(Buffer.concat([PNG_PIXEL, Buffer.from('first')]))).json().self.image as string;
    const second = (await upload(Buffer.concat([PNG_PIXEL, Buffer.from('second')]))).json().self.image as string;
    expect(await stored()).not.toContain(first.split('/').pop());
    expect(await stored()).toContain(second.split('/').pop());
    await api.put(`/v2/users/${me.id}`, cookie, { image: '' });
    expect(await stored()).not.toContain(second.split('/').pop());

    let status = 200;
    for (let i = 0; i < THROTTLE_RULES.uploadsPerUser.limit && status === 200; i++) {
      status = (await upload(Buffer.concat([PNG_PIXEL, Buffer.from(`n${i}`)]))).statusCode;
    }
    const over = await upload(PNG_PIXEL);
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });
});
