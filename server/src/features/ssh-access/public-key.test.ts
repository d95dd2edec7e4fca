/**
 * SSH key parsing on a table of keys made by ssh-keygen (issue 20 item 3): ed25519, ecdsa 256/384/521 and rsa
 * 3072/4096 are registered with the fingerprint `ssh-keygen -lf` prints; rsa 2048, dsa, garbage, a private key and
 * a certificate are 400 with the reason.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SSH_MESSAGES } from '@tessera/common/ssh';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';
import { keyDir, keygen, keygenFingerprint } from '../../test/ssh';

let t: TestApp;
let dir: string;
let cookie: string;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  t = await buildTestApp();
  dir = keyDir();
  cookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.app.close();
});

const register = (publicKey: string) => api.post('/v2/ssh/keys', cookie, { publicKey, name: 'Test key' });

describe('accepted keys: fingerprints exactly as ssh-keygen -lf prints them', () => {
  it.each([
    ['ed25519', undefined, 'ed25519', 256],
    ['ecdsa', 256, 'ecdsa', 256],
    ['ecdsa', 384, 'ecdsa', 384],
    ['ecdsa', 521, 'ecdsa', 521],
    ['rsa', 3072, 'rsa', 3072],
    ['rsa', 4096, 'rsa', 4096],
  ] as const)('%s %s', async (type, bits, expectedType, expectedBits) => {
    const key = keygen(dir, `${type}-${bits ?? 'default'}`, type, bits);
    const res = await register(key.publicKey);
    expect(res.statusCode).toBe(201);
    const stored = Object.values(res.json().sshKeys)[0] as Record<string, unknown>;
    expect(stored).toMatchObject({ type: expectedType, bits: expectedBits });
    expect(stored.fingerprint).toBe(keygenFingerprint(`${key.file}.pub`));
    expect(stored.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(stored.publicKey).toBe(key.publicKey.trim().split(' ').slice(0, 2).join(' '));
  });
});

describe('refused keys: 400 with the reason', () => {
  const refused = async (publicKey: string, message: string) => {
    const res = await register(publicKey);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, fields: [{ path: 'body.publicKey', message }] });
  };

  it('rsa 2048', async () => {
    await refused(keygen(dir, 'rsa-2048', 'rsa', 2048).publicKey, SSH_MESSAGES.rsaTooShort(2048));
  });

  it('dsa', async () => {
    await refused(keygen(dir, 'dsa', 'dsa').publicKey, SSH_MESSAGES.dsa);
  });

  it('garbage', async () => {
    await refused('hello world', SSH_MESSAGES.unreadable);
    await refused('ssh-ed25519 bm90IGEga2V5', SSH_MESSAGES.unreadable);
    const key = keygen(dir, 'two-lines', 'ed25519').publicKey.trim();
    await refused(`${key}\n${key}`, SSH_MESSAGES.unreadable);
  });

  it('a private key', async () => {
    const key = keygen(dir, 'private', 'ed25519');
    await refused(readFileSync(key.file, 'utf8'), SSH_MESSAGES.privateKey);
  });

  it('a certificate', async () => {
    const ca = keygen(dir, 'ca', 'ed25519');
    const user = keygen(dir, 'certified', 'ed25519');
    execFileSync('ssh-keygen', ['-q', '-s', ca.file, '-I', 'test', '-n', 'root', `${user.file}.pub`]);
    await refused(readFileSync(path.join(dir, 'certified-cert.pub'), 'utf8'), SSH_MESSAGES.certificate);
  });
});
