/** Calling the lookup API with an API key, in each of its forms, and every way a key is refused. */
import { createHash, createHmac } from 'node:crypto';
import { KEY_MESSAGES } from '@tessera/common/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';

let t: TestApp;
let cookie: string;
let userId: number;
const api = consoleClient(() => t.app);
const p = person();
const email = p.emails[0]!.address;
beforeAll(async () => {
  t = await buildTestApp();
  const org = await makeOrganization(t.database);
  await makeContract(t.database, org.id);
  const user = await makeUser(t.database, 'user', org.id);
  userId = user.id;
  cookie = await signIn(t.app, user.email);
  await load(t.database, p);
});
afterAll(() => t.app.close());

async function newKey(body: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const res = await api.post('/v2/keys', cookie, { name: 'test key', ...body });
  expect(res.statusCode, res.body).toBe(201);
  const [key] = Object.values(res.json().keys) as { id: string; secret: string }[];
  return key!;
}

const lookup = (authorization: string, options: { url?: string; ip?: string } = {}) =>
  t.app.inject({
    method: 'GET',
    url: options.url ?? `/v2/identities/byEmail?email=${encodeURIComponent(email)}`,
    headers: { authorization },
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
const ids = (res: { json(): { identities: { id: number }[] } }) => res.json().identities.map((i) => i.id);
const hmac = (secret: string, time: string) => createHmac('sha256', secret).update(time).digest('hex');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('lookups with an API key', () => {
  it('answers a plain Bearer key at /v2 and /v1, and meters the call to the key and its user', async () => {
    const key = await newKey();
    for (const prefix of ['/v2', '/v1']) {
      const res = await lookup(`Bearer ${key.id}${key.secret}`, {
        url: `${prefix}/identities/byEmail?email=${encodeURIComponent(email)}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res)).toEqual([p.id]);
      const [row] = await t.database.query<{ key_id: string; user_id: number }>(
        'select key_id, user_id from usage where request_id = $1',
        [res.headers['x-request-id']],
      );
      expect(row).toEqual({ key_id: key.id, user_id: userId });
    }
  });

  it('answers a POST without console headers: a key is not a cookie, so no cross-site check applies', async () => {
    const key = await newKey();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/identities/byEmail',
      headers: { authorization: `Bearer ${key.id}${key.secret}` },
      payload: { inputs: [email] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results[0].identities[0].id).toBe(p.id);
  });

  it('refuses a wrong secret, an unknown key and a malformed header with 401 and an error', async () => {
    const key = await newKey();
    const wrong = `${key.secret.slice(0, -1)}${key.secret.endsWith('a') ? 'b' : 'a'}`;
    for (const [authorization, message] of [
      [`Bearer ${key.id}${wrong}`, KEY_MESSAGES.unknown],
      [`Bearer ${'Z'.repeat(16)}${key.secret}`, KEY_MESSAGES.unknown],
      [`Bearer ${key.id}`, KEY_MESSAGES.malformed],
      [`Basic ${key.id}${key.secret}`, KEY_MESSAGES.malformed],
    ] as const) {
      const res = await lookup(authorization);
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json().error).toBe(message);
      expect(res.body).not.toContain(email);
    }
  });

  it('accepts the HMAC-signed form within five minutes and refuses a stale or wrong signature', async () => {
    const key = await newKey();
    const now = String(Date.now());
    expect((await lookup(`Bearer ${key.id}${now}${hmac(key.secret, now)}`)).statusCode).toBe(200);
    const stale = String(Date.now() - 6 * 60_000);
    const staleRes = await lookup(`Bearer ${key.id}${stale}${hmac(key.secret, stale)}`);
    expect([staleRes.statusCode, staleRes.json().error]).toEqual([401, KEY_MESSAGES.staleTime]);
    const bad = await lookup(`Bearer ${key.id}${now}${hmac('another secret', now)}`);
    expect([bad.statusCode, bad.json().error]).toEqual([401, KEY_MESSAGES.badSignature]);
  });

  it('accepts the original md5-signed form only when the key opts in, with the time in base 10, 32 or 36', async () => {
    const key = await newKey();
    const time = Date.now().toString(36);
    const token = `Bearer ${key.id}${time}${md5(time + key.secret)}`;
    const off = await lookup(token);
    expect([off.statusCode, off.json().error]).toEqual([401, KEY_MESSAGES.legacyOff]);

    const on = await api.put(`/v2/keys/${key.id}`, cookie, { legacy: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().keys[key.id].legacy).toBe(true);
    for (const base of [10, 32, 36]) {
      const at = (Date.now() - 30 * 60_000).toString(base); // a token reused for half an hour
      const res = await lookup(`Bearer ${key.id}${at}${md5(at + key.secret)}`);
      expect(res.statusCode, `base ${base}`).toBe(200);
    }
    const old = (Date.now() - 36 * 60_000).toString(36);
    const tooOld = await lookup(`Bearer ${key.id}${old}${md5(old + key.secret)}`);
    expect([tooOld.statusCode, tooOld.json().error]).toEqual([401, KEY_MESSAGES.staleTime]);
    const ahead = (Date.now() + 6 * 60_000).toString(10);
    expect((await lookup(`Bearer ${key.id}${ahead}${md5(ahead + key.secret)}`)).statusCode).toBe(401);
    const forged = await lookup(`Bearer ${key.id}${time}${md5(`${time}not the secret`)}`);
    expect([forged.statusCode, forged.json().error]).toEqual([401, KEY_MESSAGES.badSignature]);
  });

  it('refuses a key in the query string or a cookie with 400, even beside a good header', async () => {
    const key = await newKey();
    const token = `${key.id}${key.secret}`;
    const inQuery = await lookup(`Bearer ${token}`, {
      url: `/v2/identities/byEmail?email=${encodeURIComponent(email)}&apiKey=${token}`,
    });
    expect([inQuery.statusCode, inQuery.json().error]).toEqual([400, KEY_MESSAGES.inUrl]);
    expect(inQuery.json().fields[0].path).toBe('querystring.apiKey');
    const asValue = await api.get(`/v2/identities/byEmail?email=${encodeURIComponent(email)}&x=${token}`, cookie);
    expect(asValue.statusCode).toBe(400);
    const inCookie = await t.app.inject({
      method: 'GET',
      url: `/v2/identities/byEmail?email=${encodeURIComponent(email)}`,
      headers: { cookie: `key=${token}` },
    });
    expect([inCookie.statusCode, inCookie.json().error]).toEqual([400, KEY_MESSAGES.inUrl]);
  });

  it('stops answering a revoked key at once', async () => {
    const key = await newKey();
    const bearer = `Bearer ${key.id}${key.secret}`;
    expect((await lookup(bearer)).statusCode).toBe(200); // now cached
    expect((await api.del(`/v2/keys/${key.id}`, cookie)).statusCode).toBe(200);
    const res = await lookup(bearer);
    expect([res.statusCode, res.json().error]).toEqual([401, KEY_MESSAGES.unknown]);
  });

  it('rotates: the new secret works at once, the old one only for its grace period', async () => {
    const key = await newKey();
    const old = `Bearer ${key.id}${key.secret}`;
    const graced = await api.post(`/v2/keys/${key.id}/rotate`, cookie, { graceSeconds: 3600 });
    expect(graced.statusCode, graced.body).toBe(200);
    const first = graced.json().keys[key.id];
    expect(first.secret).toHaveLength(32);
    expect(first.secret).not.toBe(key.secret);
    expect(Date.parse(first.previousValidUntil)).toBeGreaterThan(Date.now());
    expect((await lookup(`Bearer ${key.id}${first.secret}`)).statusCode).toBe(200);
    expect((await lookup(old)).statusCode).toBe(200);
    // The previous secret also signs during the grace period.
    const now = String(Date.now());
    expect((await lookup(`Bearer ${key.id}${now}${hmac(key.secret, now)}`)).statusCode).toBe(200);

    const abrupt = await api.post(`/v2/keys/${key.id}/rotate`, cookie, {});
    const second = abrupt.json().keys[key.id];
    expect(second.previousValidUntil).toBeNull();
    expect((await lookup(`Bearer ${key.id}${first.secret}`)).statusCode).toBe(401);
    expect((await lookup(old)).statusCode).toBe(401);
    expect((await lookup(`Bearer ${key.id}${second.secret}`)).statusCode).toBe(200);
  });

  it('refuses an expired key', async () => {
    const key = await newKey({ expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    const bearer = `Bearer ${key.id}${key.secret}`;
    expect((await lookup(bearer)).statusCode).toBe(200);
    await t.database.query(`update api_keys set expires_at = now() - interval '1 second' where id = $1`, [key.id]);
    await api.put(`/v2/keys/${key.id}`, cookie, { name: 'renamed' }); // any change is seen at once
    const res = await lookup(bearer);
    expect([res.statusCode, res.json().error]).toEqual([401, KEY_MESSAGES.expired]);
  });

  it('answers only from the IP ranges of its allowlist', async () => {
    const key = await newKey({ ipAllowlist: ['10.0.0.0/8', '2001:db8::/32'] });
    const bearer = `Bearer ${key.id}${key.secret}`;
    expect((await lookup(bearer, { ip: '10.20.30.40' })).statusCode).toBe(200);
    expect((await lookup(bearer, { ip: '::ffff:10.1.1.1' })).statusCode).toBe(200);
    expect((await lookup(bearer, { ip: '2001:db8:1::5' })).statusCode).toBe(200);
    const refused = await lookup(bearer, { ip: '192.168.1.9' });
    expect([refused.statusCode, refused.json().error]).toEqual([403, KEY_MESSAGES.ipRefused('192.168.1.9')]);
  });

  it('passes on only its allowed record types, within its user’s', async () => {
    const key = await newKey({ allowedRecordTypes: ['emails'] });
    const res = await lookup(`Bearer ${key.id}${key.secret}`, {
      url: `/v2/identities/byEmail?email=${encodeURIComponent(email)}&template=1`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [identity] = res.json().identities;
    expect(identity.emails).toHaveLength(1);
    expect(identity.phones ?? []).toEqual([]);
    expect(identity.vehicles ?? []).toEqual([]);
  });

  it('refuses the key of a user who was deactivated, from the moment they were', async () => {
    const org = await makeOrganization(t.database);
    await makeContract(t.database, org.id);
    const admin = await makeUser(t.database, 'admin', org.id);
    const member = await makeUser(t.database, 'user', org.id);
    const memberCookie = await signIn(t.app, member.email);
    const res = await api.post('/v2/keys', memberCookie, { name: 'member key' });
    const key = Object.values(res.json().keys)[0] as { id: string; secret: string };
    const bearer = `Bearer ${key.id}${key.secret}`;
    expect((await lookup(bearer)).statusCode).toBe(200);
    const off = await api.put(`/v2/users/${member.id}`, await signIn(t.app, admin.email), { isActive: false });
    expect(off.statusCode, off.body).toBe(200);
    const refused = await lookup(bearer);
    expect([refused.statusCode, refused.json().error]).toEqual([403, KEY_MESSAGES.userInactive]);
  });
});
