/**
 * The key inside a blob, read with OpenSSH's rules (sshkey.c, ssh-rsa.c, ssh-ecdsa.c, ssh-ed25519.c, sshbuf-getput)
 * and a few more where OpenSSH would take a key anyone can sign for. Each reader takes the fields after the type
 * string and answers them written back as OpenSSH writes them, with the key's size in bits; KeyRefused otherwise.
 * - rsa: e and n not negative; n of 3072 (our floor; OpenSSH's is 1024) to 16384 bits (the most OpenSSH reads);
 *   beyond OpenSSH: e odd, at least 3 and at most 64 bits (OpenSSL's own limit above 3072 bits), and n with no
 *   prime factor below 1000 (n even or e = 1 let signatures be forged without the private key).
 * - ecdsa: the curve named inside is the type's; the point uncompressed (04 x y) and on the curve: OpenSSL checks
 *   that when node:crypto imports the coordinates (`createPublicKey` throws otherwise). NIST curves have cofactor 1,
 *   so a point on the curve (never the point at infinity, which has no 04 form) is in the right group.
 * - ed25519: exactly 32 bytes; beyond OpenSSH, a point that decodes and is not of small order.
 */
import { createPublicKey } from 'node:crypto';
import { SSH_LIMITS, SSH_MESSAGES, type SshKeyType } from '@tessera/common/ssh';
import { isUsableEd25519Point } from './ed25519-point';
import { bitLength, KeyRefused, mpintValue, type WireReader, wireMpint, wireString } from './ssh-wire';

export interface KeyBody {
  type: SshKeyType;
  bits: number;
  /** The fields after the type string, as OpenSSH writes them. */
  fields: Buffer;
}

const SMALL_PRIMES_PRODUCT = (() => {
  let product = 1n;
  for (let candidate = 2; candidate < 1000; candidate++) {
    let prime = true;
    for (let d = 2; d * d <= candidate; d++) if (candidate % d === 0) prime = false;
    if (prime) product *= BigInt(candidate);
  }
  return product;
})();

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a, b];
  while (y) [x, y] = [y, x % y];
  return x;
}

function readRsa(reader: WireReader): KeyBody {
  const e = mpintValue(reader.bytes());
  const n = mpintValue(reader.bytes());
  if (e === null || e < 3n || e % 2n === 0n || bitLength(e) > 64) throw new KeyRefused(SSH_MESSAGES.rsaExponent);
  if (n === null) throw new KeyRefused(SSH_MESSAGES.rsaModulus);
  const bits = bitLength(n);
  if (bits > SSH_LIMITS.rsaMaxBits) throw new KeyRefused(SSH_MESSAGES.rsaTooLong(bits));
  if (bits < SSH_LIMITS.rsaMinBits) throw new KeyRefused(SSH_MESSAGES.rsaTooShort(bits));
  if (gcd(n, SMALL_PRIMES_PRODUCT) !== 1n) throw new KeyRefused(SSH_MESSAGES.rsaModulus);
  return { type: 'rsa', bits, fields: Buffer.concat([wireMpint(e), wireMpint(n)]) };
}

const CURVES = {
  nistp256: { jwk: 'P-256', bytes: 32, bits: 256 },
  nistp384: { jwk: 'P-384', bytes: 48, bits: 384 },
  nistp521: { jwk: 'P-521', bytes: 66, bits: 521 },
} as const;

function readEcdsa(curve: keyof typeof CURVES, reader: WireReader): KeyBody {
  const { jwk, bytes, bits } = CURVES[curve];
  const named = reader.name();
  if (named !== curve) throw new KeyRefused(SSH_MESSAGES.ecdsaCurve(curve, named));
  const point = reader.bytes();
  if (point.length !== 1 + 2 * bytes || point[0] !== 4) {
    throw new KeyRefused(SSH_MESSAGES.ecdsaPointFormat(curve, bytes));
  }
  const x = point.subarray(1, 1 + bytes).toString('base64url');
  const y = point.subarray(1 + bytes).toString('base64url');
  try {
    createPublicKey({ key: { kty: 'EC', crv: jwk, x, y }, format: 'jwk' });
  } catch {
    throw new KeyRefused(SSH_MESSAGES.ecdsaOffCurve(curve));
  }
  return { type: 'ecdsa', bits, fields: Buffer.concat([wireString(curve), wireString(point)]) };
}

function readEd25519(reader: WireReader): KeyBody {
  const point = reader.bytes();
  if (point.length !== 32) throw new KeyRefused(SSH_MESSAGES.ed25519Length(point.length));
  if (!isUsableEd25519Point(point)) throw new KeyRefused(SSH_MESSAGES.ed25519Point);
  return { type: 'ed25519', bits: 256, fields: wireString(point) };
}

/** The readers by the type string inside the blob: the key types OpenSSH logs in with that sshpk also reads. */
export const KEY_READERS: ReadonlyMap<string, (reader: WireReader) => KeyBody> = new Map([
  ['ssh-ed25519', readEd25519],
  ['ecdsa-sha2-nistp256', (reader: WireReader) => readEcdsa('nistp256', reader)],
  ['ecdsa-sha2-nistp384', (reader: WireReader) => readEcdsa('nistp384', reader)],
  ['ecdsa-sha2-nistp521', (reader: WireReader) => readEcdsa('nistp521', reader)],
  ['ssh-rsa', readRsa],
]);
