/**
 * The ed25519 point check on its own: keys node:crypto makes all pass, and the eight small-order points (as the
 * blocklist libsodium's crypto_sign_verify uses lists them), a y with no point and a y of p or more all fail.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isUsableEd25519Point } from './ed25519-point';

const hex = (text: string) => Buffer.from(text, 'hex');
const zeros = '00'.repeat(31);

describe('isUsableEd25519Point', () => {
  it('takes 200 public keys node:crypto makes', () => {
    for (let i = 0; i < 200; i++) {
      const point = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
      expect(isUsableEd25519Point(point)).toBe(true);
    }
  });

  it.each([
    ['order 1 (neutral)', `01${zeros}`],
    ['order 2 (y = -1)', `ec${'ff'.repeat(30)}7f`],
    ['order 4 (y = 0)', `00${zeros}`],
    ['order 4 (y = 0, x negative)', `${zeros}80`],
    ['order 8', 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'],
    ['order 8, x negative', 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa'],
    ['order 8, other y', '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'],
    ['order 8, other y, x negative', '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85'],
    ['y = 2, no such point', `02${zeros}`],
    ['y = p, not canonical', `ed${'ff'.repeat(30)}7f`],
    ['31 bytes', '01'.repeat(31)],
  ])('refuses %s', (_name, bytes) => {
    expect(isUsableEd25519Point(hex(bytes))).toBe(false);
  });
});
