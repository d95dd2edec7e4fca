/** The shapes of a key in the Authorization header, and the time windows of its signed forms. */
import { describe, expect, it } from 'vitest';
import { legacyTimeFits, parseAuthorization, signedTimeFits } from './credentials';

const id = 'AbCdEfGh12345678';
const secret = 'S'.repeat(32);
const now = 1_795_000_000_000;

describe('API key credentials', () => {
  it('tells the three forms apart by shape', () => {
    expect(parseAuthorization(`Bearer ${id}${secret}`)).toEqual({ form: 'bearer', keyId: id, secret, test: false });
    const hmac = 'ab'.repeat(32);
    expect(parseAuthorization(`bearer  ${id}${now}${hmac.toUpperCase()}`)).toEqual({
      form: 'signed',
      keyId: id,
      time: String(now),
      signature: hmac,
      test: false,
    });
    const md5 = 'cd'.repeat(16);
    expect(parseAuthorization(`Bearer ${id}${now.toString(36)}${md5}`)).toEqual({
      form: 'legacy',
      keyId: id,
      time: now.toString(36),
      signature: md5,
      test: false,
    });
  });

  it("reads a test key's prefix in each form, and keeps it out of the key id", () => {
    expect(parseAuthorization(`Bearer tk_test_${id}${secret}`)).toEqual({
      form: 'bearer',
      keyId: id,
      secret,
      test: true,
    });
    expect(parseAuthorization(`Bearer tk_test_${id}${now}${'ab'.repeat(32)}`)).toMatchObject({
      form: 'signed',
      test: true,
    });
    expect(parseAuthorization(`Bearer tk_test_${id}${now}${'cd'.repeat(16)}`)).toMatchObject({
      form: 'legacy',
      test: true,
    });
    expect(parseAuthorization(`Bearer tk_live_${id}${secret}`)).toBeNull();
    expect(parseAuthorization(`Bearer tk_test_`)).toBeNull();
  });

  it('refuses anything else', () => {
    for (const header of [
      `Basic ${id}${secret}`,
      `Bearer ${id}${secret}x`.slice(0, 40),
      `Bearer ${id}${secret.slice(1)}!`,
      `Bearer ${id}${secret} extra`,
      'Bearer',
      `Bearer ${id}${'z'.repeat(17)}${'cd'.repeat(16)}`,
    ]) {
      expect(parseAuthorization(header), header).toBeNull();
    }
  });

  it('accepts a signed time within five minutes either way', () => {
    expect(signedTimeFits(String(now - 5 * 60_000), now)).toBe(true);
    expect(signedTimeFits(String(now + 5 * 60_000), now)).toBe(true);
    expect(signedTimeFits(String(now - 5 * 60_000 - 1), now)).toBe(false);
    expect(signedTimeFits(String(now + 5 * 60_000 + 1), now)).toBe(false);
  });

  it('reads a legacy time in base 10, 32 or 36: up to 35 minutes old, 5 minutes ahead', () => {
    for (const base of [10, 32, 36]) {
      const at = (ms: number) => ms.toString(base);
      expect(legacyTimeFits(at(now - 35 * 60_000), now), `base ${base}`).toBe(true);
      expect(legacyTimeFits(at(now + 5 * 60_000), now), `base ${base}`).toBe(true);
      expect(legacyTimeFits(at(now - 35 * 60_000 - 1), now), `base ${base}`).toBe(false);
      expect(legacyTimeFits(at(now + 5 * 60_000 + 1), now), `base ${base}`).toBe(false);
      expect(legacyTimeFits(at(now).toUpperCase(), now), `base ${base}`).toBe(true);
    }
    expect(legacyTimeFits('not-a-time', now)).toBe(false);
  });
});
