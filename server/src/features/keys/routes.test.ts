/** /v2/keys: the secret once, stored only as a hash and sealed; who manages which keys; every rule a body breaks. */
import { createHash } from 'node:crypto';
import { KEY_MESSAGES } from '@tessera/common/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';

let t: TestApp;
const api = consoleClient(() => t.app);
let org: number;
let owner: { id: number; cookie: string };
let colleague: { id: number; cookie: string };
let admin: { cookie: string };
let outsider: { cookie: string };
let staff: { cookie: string };

async function member(role: 'user' | 'admin' | 'super', organizationId: number | null, allowedRecordTypes?: string[]) {
  const u = await makeUser(t.database, role, organizationId, allowedRecordTypes ? { allowedRecordTypes } : {});
  return { id: u.id, cookie: await signIn(t.app, u.email) };
}

beforeAll(async () => {
  t = await buildTestApp();
  org = (await makeOrganization(t.database)).id;
  owner = await member('user', org);
  colleague = await member('user', org);
  admin = await member('admin', org);
  outsider = await member('admin', (await makeOrganization(t.database)).id);
  staff = await member('super', null);
});
afterAll(() => t.app.close());

const create = async (cookie: string, body: Record<string, unknown> = { name: 'Production' }) =>
  api.post('/v2/keys', cookie, body);
const only = (res: { json(): { keys: Record<string, Record<string, unknown>> } }) => Object.values(res.json().keys)[0]!;

describe('/v2/keys', () => {
  it('shows the secret once, and keeps only its SHA-256, its last four and a sealed copy', async () => {
    const res = await create(owner.cookie, { name: 'Production', rateLimit: 600, legacy: false });
    expect(res.statusCode, res.body).toBe(201);
    const key = only(res) as { id: string; secret: string; lastFour: string };
    expect(key.id).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(key.secret).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(key).toMatchObject({ name: 'Production', userId: owner.id, organizationId: org, rateLimit: 600 });
    expect(key.lastFour).toBe(key.secret.slice(-4));

    const [row] = await t.database.query<Record<string, string>>('select * from api_keys where id = $1', [key.id]);
    expect(row!.secret_sha256).toBe(createHash('sha256').update(key.secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key.secret);

    for (const res of [await api.get('/v2/keys', owner.cookie), await api.get(`/v2/keys/${key.id}`, owner.cookie)]) {
      expect(res.statusCode).toBe(200);
      expect(res.json().keys[key.id].lastFour).toBe(key.lastFour);
      expect(res.body).not.toContain(key.secret);
    }
    const [audit] = await t.database.query<{ action: string; detail: unknown }>(
      `select action, detail from audit_log where target_type = 'key' and target_id = $1`,
      [key.id],
    );
    expect(audit!.action).toBe('key.create');
    expect(JSON.stringify(audit)).not.toContain(key.secret);
  });

  it('lets a user manage their own keys, an administrator their organization’s, staff every one', async () => {
    const key = only(await create(owner.cookie)) as { id: string };
    const listed = async (cookie: string) => Object.keys((await api.get('/v2/keys', cookie)).json().keys);
    expect(await listed(owner.cookie)).toContain(key.id);
    expect(await listed(admin.cookie)).toContain(key.id);
    expect(await listed(staff.cookie)).toContain(key.id);
    expect(await listed(colleague.cookie)).not.toContain(key.id);
    expect(await listed(outsider.cookie)).not.toContain(key.id);

    for (const cookie of [colleague.cookie, outsider.cookie]) {
      for (const res of [
        await api.get(`/v2/keys/${key.id}`, cookie),
        await api.put(`/v2/keys/${key.id}`, cookie, { name: 'Mine now' }),
        await api.post(`/v2/keys/${key.id}/rotate`, cookie, {}),
        await api.del(`/v2/keys/${key.id}`, cookie),
      ]) {
        expect([res.statusCode, res.json().error]).toEqual([404, KEY_MESSAGES.notFound]);
      }
    }
    const renamed = await api.put(`/v2/keys/${key.id}`, admin.cookie, { name: 'Renamed by admin' });
    expect(renamed.json().keys[key.id].name).toBe('Renamed by admin');
    const revoked = await api.del(`/v2/keys/${key.id}`, staff.cookie);
    expect(revoked.json().keys[key.id].deletedAt).toEqual(expect.any(String));
    expect(await listed(owner.cookie)).not.toContain(key.id);
    expect((await api.get(`/v2/keys/${key.id}`, owner.cookie)).statusCode).toBe(404);
    expect((await api.del(`/v2/keys/${key.id}`, owner.cookie)).statusCode).toBe(404);
  });

  it('refuses every broken rule with 400 naming the field, and writes nothing', async () => {
    const before = (await t.database.query<{ n: number }>('select count(*)::int as n from api_keys'))[0]!.n;
    const cases: [Record<string, unknown>, string, string?][] = [
      [{}, 'body.name'],
      [{ name: '   ' }, 'body.name'],
      [{ name: 'x', ipAllowlist: ['10.0.0.0/33'] }, 'body.ipAllowlist.0', KEY_MESSAGES.cidr('10.0.0.0/33')],
      [{ name: 'x', ipAllowlist: ['example.com'] }, 'body.ipAllowlist.0', KEY_MESSAGES.cidr('example.com')],
      [
        { name: 'x', allowedRecordTypes: ['emails', 'secrets'] },
        'body.allowedRecordTypes.1',
        KEY_MESSAGES.recordType('secrets'),
      ],
      [{ name: 'x', expiresAt: '2001-01-01T00:00:00Z' }, 'body.expiresAt', KEY_MESSAGES.expiresPast],
      [{ name: 'x', expiresAt: 'tomorrow' }, 'body.expiresAt'],
      [{ name: 'x', rateLimit: 0 }, 'body.rateLimit'],
      [{ name: 'x', secret: 'mine' }, 'body'],
    ];
    for (const [body, path, message] of cases) {
      const res = await create(owner.cookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const field = res.json().fields.find((f: { path: string }) => f.path.startsWith(path));
      expect(field, `${JSON.stringify(body)}: ${res.body}`).toBeDefined();
      if (message) expect(field.message).toBe(message);
    }
    const limited = await member('user', org, ['emails']);
    const tooWide = await create(limited.cookie, { name: 'x', allowedRecordTypes: ['emails', 'phones'] });
    expect([tooWide.statusCode, tooWide.json().error]).toEqual([400, KEY_MESSAGES.recordTypeNotYours('phones')]);
    const after = (await t.database.query<{ n: number }>('select count(*)::int as n from api_keys'))[0]!.n;
    expect(after).toBe(before);
    expect((await create(limited.cookie, { name: 'x', allowedRecordTypes: ['emails'] })).statusCode).toBe(201);
  });

  it('keeps an administrator from widening a member’s key beyond the member’s record types', async () => {
    const limited = await member('user', org, ['emails']);
    const key = only(await create(limited.cookie, { name: 'Narrow' })) as { id: string };
    const res = await api.put(`/v2/keys/${key.id}`, admin.cookie, { allowedRecordTypes: ['phones'] });
    expect([res.statusCode, res.json().error]).toEqual([400, KEY_MESSAGES.recordTypeNotYours('phones')]);
  });

  it('needs a signed-in organization user and the console’s headers', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v2/keys' })).statusCode).toBe(401);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/v2/keys',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      payload: { name: 'x' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await api.get('/v2/keys/not-a-key-id', owner.cookie)).statusCode).toBe(400);
  });

  it('pushes a change to the owner’s and the organization’s consoles', async () => {
    const pushes: { channel: string; payload: Record<string, unknown> }[] = [];
    t.fanout.onMessage((m) => {
      if (m.kind === 'push') pushes.push({ channel: m.channel, payload: m.payload });
    });
    const key = only(await create(owner.cookie, { name: 'Pushed' })) as { id: string };
    await new Promise((resolve) => setImmediate(resolve));
    const seen = pushes.filter((p) => JSON.stringify(p.payload).includes(key.id));
    expect(seen.map((p) => p.channel).sort()).toEqual([`organization:${org}`, `self:${owner.id}`]);
    expect(JSON.stringify(seen)).not.toContain('"secret"');
  });
});
