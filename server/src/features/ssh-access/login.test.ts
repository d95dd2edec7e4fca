/**
 * SSH access proven against a real OpenSSH server on loopback (issue 20 item 3): sshd asks the running test
 * server's /v2/ssh/authorized_keys through AuthorizedKeysCommand (curl, as nobody) and trusts the product's CA.
 * A granted key logs in (ed25519, ecdsa 256/384/521, rsa 3072); an expired or revoked grant, another login's grant
 * or another group's does not; a certificate logs in through TrustedUserCAKeys and stops working when it expires.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sshGrants } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';
import { describeCertificate, keyDir, keygen, sshLogin, startSshd, type TestKey, type TestSshd } from '../../test/ssh';

let t: TestApp;
let sshd: TestSshd;
let dir: string;
let rootCookie: string;
const api = consoleClient(() => t.app);
const group = `login-${Date.now().toString(36)}`;
let groupId: number;
let otherGroupId: number;

// biome-ignore lint/suspicious/noExplicitAny: a reply's one item, read as the test needs
const one = (reply: { json(): Record<string, Record<string, unknown>> }, area: string): any =>
  Object.values(reply.json()[area]!)[0];

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  rootCookie = await signIn(t.app, (await makeUser(t.database, 'root')).email);
  const created = await api.post('/v2/ssh/groups', rootCookie, { name: group });
  const { id, token } = one(created, 'sshHostGroups') as { id: number; token: string };
  groupId = id;
  otherGroupId = (
    one(await api.post('/v2/ssh/groups', rootCookie, { name: `${group}-other` }), 'sshHostGroups') as {
      id: number;
    }
  ).id;
  const ca = (await api.get('/v2/ssh/ca', rootCookie)).json().sshCa.publicKey as string;
  sshd = await startSshd({ serverUrl: `http://127.0.0.1:${port}`, group, token, caPublicKey: ca });
  dir = keyDir();
}, 60_000);

afterAll(async () => {
  await sshd?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await t.app.close();
});

async function registered(name: string, type = 'ed25519', bits?: number): Promise<TestKey & { id: number }> {
  const key = keygen(dir, name, type, bits);
  const res = await api.post('/v2/ssh/keys', rootCookie, { publicKey: key.publicKey, name });
  expect(res.statusCode).toBe(201);
  return { ...key, id: one(res, 'sshKeys').id };
}

async function grant(keyId: number, principal = 'root', onGroup = groupId): Promise<number> {
  const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
  const res = await api.post('/v2/ssh/grants', rootCookie, { keyId, groupId: onGroup, principal, expiresAt });
  expect(res.statusCode).toBe(201);
  return one(res, 'sshGrants').id;
}

const login = async (key: TestKey, certificate?: string) =>
  (await sshLogin(sshd.port, key.file, certificate ? { certificate } : {})).ok;

describe('AuthorizedKeysCommand', () => {
  it('lets a granted key in as its login, and no other key', async () => {
    const granted = await registered('granted');
    await grant(granted.id);
    expect(await login(granted)).toBe(true);
    const stranger = keygen(dir, 'stranger', 'ed25519');
    expect(await login(stranger)).toBe(false);
    const otherLogin = await registered('other-login');
    await grant(otherLogin.id, 'postgres');
    expect(await login(otherLogin)).toBe(false);
    const otherGroup = await registered('other-group');
    await grant(otherGroup.id, 'root', otherGroupId);
    expect(await login(otherGroup)).toBe(false);
  }, 120_000);

  it.each([
    ['rsa', 3072],
    ['ecdsa', 256],
    ['ecdsa', 384],
    ['ecdsa', 521],
  ] as const)(
    'lets a granted %s %s key in (RSA signs with rsa-sha2: OpenSSH 9 refuses SHA-1 ssh-rsa)',
    async (type, bits) => {
      const key = await registered(`granted-${type}-${bits}`, type, bits);
      await grant(key.id);
      expect(await login(key)).toBe(true);
    },
    120_000,
  );

  it('stops letting a key in when its grant expires', async () => {
    const key = await registered('expiring');
    const id = await grant(key.id);
    expect(await login(key)).toBe(true);
    await t.database.db
      .update(sshGrants)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sshGrants.id, id));
    expect(await login(key)).toBe(false);
  }, 120_000);

  it('stops letting a key in when its grant is revoked', async () => {
    const key = await registered('revoked');
    const id = await grant(key.id);
    expect(await login(key)).toBe(true);
    expect((await api.del(`/v2/ssh/grants/${id}`, rootCookie)).statusCode).toBe(200);
    expect(await login(key)).toBe(false);
  }, 120_000);
});

describe('TrustedUserCAKeys', () => {
  it('lets a certificate from POST /v2/ssh/certificates in, for a key the hosts do not list', async () => {
    const key = await registered('certified');
    const grantId = await grant(key.id, 'root', otherGroupId);
    expect(await login(key)).toBe(false);
    const res = await api.post('/v2/ssh/certificates', rootCookie, { keyId: key.id, grantId, hours: 1 });
    expect(res.statusCode).toBe(201);
    const file = path.join(dir, 'certified.cert');
    writeFileSync(file, `${one(res, 'sshCertificates').certificate}\n`);
    const described = describeCertificate(file);
    expect(described).toContain('user certificate');
    expect(described).toMatch(/Principals:\s+root\n/);
    expect(described).toContain('permit-pty');
    expect(await login(key, file)).toBe(true);
  }, 120_000);

  it('stops letting a certificate in when it expires', async () => {
    const key = await registered('lapsing');
    const sign = await t.app.sshCa.signer();
    // The CA signs one valid for a few seconds (the API's shortest is an hour): used at once, then after its end.
    const validBefore = new Date(Math.ceil((Date.now() + 15_000) / 1000) * 1000);
    const certificate = sign({
      subject: sshpk.parseKey(key.publicKey, 'ssh'),
      principal: 'root',
      validAfter: new Date(Date.now() - 60_000),
      validBefore,
      serial: 1,
      keyId: 'lapsing-test',
    });
    const file = path.join(dir, 'lapsing.cert');
    writeFileSync(file, `${certificate}\n`);
    expect(await login(key, file)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, validBefore.getTime() - Date.now()) + 1500));
    expect(await login(key, file)).toBe(false);
  }, 120_000);

  it('refuses a certificate for another login', async () => {
    const key = await registered('other-principal');
    const grantId = await grant(key.id, 'postgres', otherGroupId);
    const res = await api.post('/v2/ssh/certificates', rootCookie, { keyId: key.id, grantId, hours: 1 });
    const file = path.join(dir, 'other-principal.cert');
    writeFileSync(file, `${one(res, 'sshCertificates').certificate}\n`);
    expect(await login(key, file)).toBe(false);
  }, 120_000);
});
