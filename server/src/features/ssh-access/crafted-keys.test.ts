/**
 * Crafted public keys (issue 28 finding 8): blobs built by hand in the SSH wire format (RFC 4253: string type,
 * mpint e, mpint n; RFC 5656: string curve, string point; string 32-byte ed25519 point) and sent through
 * POST /v2/ssh/keys. Each is 400 naming its problem. `ssh-keygen -lf` (OpenSSH's own key reader, the one
 * authorized_keys lines go through) is asked about each too: where OpenSSH reads the key (RSA e=1, an even modulus,
 * a small-order ed25519 point), the product is stricter than OpenSSH, on purpose; everywhere else both refuse.
 * Keys OpenSSH reads and that are sound are registered: leading zero bytes on an mpint (OpenSSH trims them; the key
 * is kept as ssh-keygen writes it) and an exponent of 3.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
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

// The SSH wire format, by hand.
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const str = (value: Buffer | string) => Buffer.concat([u32(Buffer.byteLength(value)), Buffer.from(value)]);
/** A non-negative mpint as OpenSSH writes it: big-endian, minimal, a 0 byte before a set top bit. */
const mpint = (value: bigint) => {
  let hex = value === 0n ? '' : value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (/^[89a-f]/.test(hex)) hex = `00${hex}`;
  return str(Buffer.from(hex, 'hex'));
};
const big = (b64url: string) => BigInt(`0x${Buffer.from(b64url, 'base64url').toString('hex')}`);
const line = (type: string, ...parts: Buffer[]) => `${type} ${Buffer.concat(parts).toString('base64')} crafted`;

const rsaParts = (key: KeyObject) => {
  const jwk = key.export({ format: 'jwk' });
  return { e: big(jwk.e!), n: big(jwk.n!) };
};
const rsa = (e: Buffer, n: Buffer) => line('ssh-rsa', str('ssh-rsa'), e, n);
const ecPoint = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).subarray(-65);
const ecdsa = (curve: string, point: Buffer, inside = curve) =>
  line(`ecdsa-sha2-${curve}`, str(`ecdsa-sha2-${curve}`), str(inside), str(point));
const ed25519 = (point: Buffer, ...rest: Buffer[]) => line('ssh-ed25519', str('ssh-ed25519'), str(point), ...rest);

const { n: n3072 } = rsaParts(generateKeyPairSync('rsa', { modulusLength: 3072 }).publicKey);
const { n: n2048 } = rsaParts(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey);
const p256 = ecPoint(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);
const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'der', type: 'spki' });
const edPoint = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
const e65537 = mpint(65537n);
const offCurve = Buffer.from(p256);
offCurve.writeUInt8(offCurve.readUInt8(64) ^ 1, 64);
/** A 16391-bit odd modulus: 2049 bytes with no leading zero byte, one byte more than OpenSSH reads. */
const tooLong = Buffer.alloc(2049, 0x5b);
/** y = 2: (y² - 1) / (d·y² + 1) is not a square mod 2^255 - 19, so no x exists and the 32 bytes are no point. */
const notAPoint = Buffer.concat([Buffer.from([2]), Buffer.alloc(31)]);
/** y = 1, x = 0: the neutral element, of order 1; with it any (R = sB, s) verifies for every message. */
const neutral = Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]);

/** [what, line, message, whether OpenSSH's reader takes it] */
const crafted: [string, string, string, boolean][] = [
  ['rsa e = 1', rsa(mpint(1n), mpint(n3072)), SSH_MESSAGES.rsaExponent, true],
  ['rsa e = 0', rsa(mpint(0n), mpint(n3072)), SSH_MESSAGES.rsaExponent, true],
  ['rsa even e = 65536', rsa(mpint(65536n), mpint(n3072)), SSH_MESSAGES.rsaExponent, true],
  ['rsa e of 65 bits', rsa(mpint(2n ** 64n + 1n), mpint(n3072)), SSH_MESSAGES.rsaExponent, true],
  ['rsa negative e', rsa(str(Buffer.from([0x81, 0x01])), mpint(n3072)), SSH_MESSAGES.rsaExponent, false],
  ['rsa even modulus', rsa(e65537, mpint(n3072 + 1n)), SSH_MESSAGES.rsaModulus, true],
  ['rsa modulus with factor 3', rsa(e65537, mpint(n3072 * 3n)), SSH_MESSAGES.rsaModulus, true],
  ['rsa negative modulus', rsa(e65537, str(mpint(n3072).subarray(5))), SSH_MESSAGES.rsaModulus, false],
  ['rsa 2048 bits', rsa(e65537, mpint(n2048)), SSH_MESSAGES.rsaTooShort(2048), true],
  ['rsa 16391 bits', rsa(e65537, str(tooLong)), SSH_MESSAGES.rsaTooLong(16391), false],
  ['rsa truncated', rsa(e65537, mpint(n3072)).replace(/.{40} crafted$/, ' crafted'), SSH_MESSAGES.unreadable, false],
  ['ed25519 of 16 bytes', ed25519(edPoint.subarray(0, 16)), SSH_MESSAGES.ed25519Length(16), false],
  ['ed25519 of 33 bytes', ed25519(Buffer.concat([edPoint, Buffer.from([0])])), SSH_MESSAGES.ed25519Length(33), false],
  ['ed25519 not a point', ed25519(notAPoint), SSH_MESSAGES.ed25519Point, true],
  ['ed25519 small-order point', ed25519(neutral), SSH_MESSAGES.ed25519Point, true],
  ['ed25519 trailing data', ed25519(edPoint, str('more')), SSH_MESSAGES.trailingData, false],
  ['ecdsa off the curve', ecdsa('nistp256', offCurve), SSH_MESSAGES.ecdsaOffCurve('nistp256'), false],
  [
    'ecdsa compressed point',
    ecdsa('nistp256', Buffer.concat([Buffer.from([2]), p256.subarray(1, 33)])),
    SSH_MESSAGES.ecdsaPointFormat('nistp256', 32),
    false,
  ],
  [
    'ecdsa point at infinity',
    ecdsa('nistp256', Buffer.from([0])),
    SSH_MESSAGES.ecdsaPointFormat('nistp256', 32),
    false,
  ],
  [
    'ecdsa nistp384 with a nistp256 point',
    ecdsa('nistp384', p256),
    SSH_MESSAGES.ecdsaPointFormat('nistp384', 48),
    false,
  ],
  [
    'ecdsa curve named otherwise inside',
    ecdsa('nistp256', p384.subarray(-97), 'nistp384'),
    SSH_MESSAGES.ecdsaCurve('nistp256', 'nistp384'),
    false,
  ],
  [
    'line says ssh-ed25519, key is ssh-rsa',
    line('ssh-ed25519', str('ssh-rsa'), e65537, mpint(n3072)),
    SSH_MESSAGES.typeMismatch('ssh-ed25519', 'ssh-rsa'),
    false,
  ],
  [
    'security-key ed25519 (sk-)',
    line('sk-ssh-ed25519@openssh.com', str('sk-ssh-ed25519@openssh.com'), str(edPoint), str('ssh:')),
    SSH_MESSAGES.unsupported('sk-ssh-ed25519@openssh.com'),
    true,
  ],
];

/** Whether OpenSSH's key reader takes the line (`ssh-keygen -lf` exits 0). */
function opensshReads(name: string, text: string): boolean {
  const file = path.join(dir, `${name.replace(/\W+/g, '-')}.pub`);
  writeFileSync(file, `${text}\n`);
  try {
    execFileSync('ssh-keygen', ['-lf', file], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('crafted keys: 400 naming the problem', () => {
  it.each(crafted)('%s', async (name, text, message, openssh) => {
    expect(opensshReads(name, text)).toBe(openssh);
    const res = await api.post('/v2/ssh/keys', cookie, { publicKey: text, name: 'Crafted' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, fields: [{ path: 'body.publicKey', message }] });
  });
});

describe('sound keys OpenSSH reads are registered', () => {
  const register = async (publicKey: string) => {
    const res = await api.post('/v2/ssh/keys', cookie, { publicKey, name: 'Sound' });
    expect(res.statusCode).toBe(201);
    return Object.values(res.json().sshKeys)[0] as {
      type: string;
      bits: number;
      fingerprint: string;
      publicKey: string;
    };
  };

  it('rsa 3072 with leading zero bytes on e: kept as ssh-keygen writes it, with its fingerprint', async () => {
    const key = keygen(dir, 'padded', 'rsa', 3072);
    const blob = Buffer.from(key.publicKey.split(' ')[1]!, 'base64');
    const e = blob.subarray(11, 18); // after the type string: length 3, then 01 00 01
    expect(e.toString('hex')).toBe('00000003010001');
    const padded = Buffer.concat([blob.subarray(0, 11), str(Buffer.from([0, 0, 1, 0, 1])), blob.subarray(18)]);
    const text = `ssh-rsa ${padded.toString('base64')} padded`;
    expect(opensshReads('padded-e', text)).toBe(true);
    const stored = await register(text);
    expect(stored).toMatchObject({ type: 'rsa', bits: 3072, fingerprint: keygenFingerprint(`${key.file}.pub`) });
    expect(stored.publicKey).toBe(key.publicKey.split(' ').slice(0, 2).join(' '));
  });

  it('rsa 3072 with e = 3', async () => {
    const { n } = rsaParts(generateKeyPairSync('rsa', { modulusLength: 3072, publicExponent: 3 }).publicKey);
    expect(await register(rsa(mpint(3n), mpint(n)))).toMatchObject({ type: 'rsa', bits: 3072 });
  });

  it.each([
    ['ed25519', undefined, 256],
    ['ecdsa', 256, 256],
    ['ecdsa', 384, 384],
    ['ecdsa', 521, 521],
    ['rsa', 3072, 3072],
  ] as const)('ssh-keygen -t %s -b %s', async (type, bits, expectedBits) => {
    const key = keygen(dir, `sound-${type}-${bits ?? ''}`, type, bits);
    const stored = await register(key.publicKey);
    expect(stored).toMatchObject({ type, bits: expectedBits, fingerprint: keygenFingerprint(`${key.file}.pub`) });
  });
});
