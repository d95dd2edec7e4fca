import { describe, expect, it } from 'vitest';
import {
  ipFamily,
  type KeyEntry,
  keyStates,
  normalizeCidr,
  parseKeyResource,
  seesKeysOf,
  splitAllowlist,
} from './key-settings';

const A = 'AbCdEfGh12345678';
const B = 'ZyXwVuTs98765432';

describe('key page addresses', () => {
  it('reads add, view, edit and comma-separated views and deletes; anything else is not found', () => {
    expect(parseKeyResource('add')).toEqual({ mode: 'create', ids: [] });
    expect(parseKeyResource(A)).toEqual({ mode: 'view', ids: [A] });
    expect(parseKeyResource('edit', A)).toEqual({ mode: 'edit', ids: [A] });
    expect(parseKeyResource('delete', `${A},${B}`)).toEqual({ mode: 'delete', ids: [A, B] });
    // A comma-separated list views several (spec §2; decision 0062).
    expect(parseKeyResource(`${A},${B}`)).toEqual({ mode: 'view', ids: [A, B] });
    expect(parseKeyResource('add', 'add')).toEqual({ mode: 'create', ids: [] });
    for (const [first, second] of [
      ['1', undefined],
      [`${A},`, undefined],
      ['edit', `${A},${B}`],
      ['publish', A],
      ['delete', `${A},`],
      ['delete', 'short'],
      [undefined, undefined],
    ] as const) {
      expect(parseKeyResource(first, second), `${first}/${second}`).toBeNull();
    }
  });
});

describe('IP allowlist entries', () => {
  it('reads addresses as node:net isIP does (the server used it before)', () => {
    const samples: [string, number][] = [
      ['10.0.0.1', 4],
      ['255.255.255.255', 4],
      ['256.1.1.1', 0],
      ['1.2.3', 0],
      ['01.2.3.4', 0],
      ['::', 6],
      ['::1', 6],
      ['2001:db8::', 6],
      ['2001:db8:0:0:0:0:2:1', 6],
      ['2001:db8::2:1', 6],
      ['1:2:3:4:5:6:7:8:9', 0],
      ['1::2::3', 0],
      ['::ffff:192.168.1.1', 6],
      ['::ffff:999.1.1.1', 0],
      ['g::1', 0],
      ['', 0],
      ['1:2:3:4:5:6:7::', 6],
      [':1:2:3:4:5:6:7', 0],
    ];
    for (const [s, family] of samples) expect(ipFamily(s), s).toBe(family);
  });

  it('normalizes ranges and refuses bad ones', () => {
    expect(normalizeCidr(' 10.0.0.0/8 ')).toBe('10.0.0.0/8');
    expect(normalizeCidr('10.0.0.1')).toBe('10.0.0.1/32');
    expect(normalizeCidr('2001:DB8::/32')).toBe('2001:db8::/32');
    expect(normalizeCidr('::1')).toBe('::1/128');
    expect(normalizeCidr('10.0.0.0/33')).toBeNull();
    expect(normalizeCidr('10.0.0.0/8/1')).toBeNull();
    expect(normalizeCidr('10.0.0.0/x')).toBeNull();
    // A zone id (node:net allows one) never matches a caller's address: refused.
    expect(normalizeCidr('fe80::1%eth0')).toBeNull();
    expect(splitAllowlist('10.0.0.0/8\n 1.2.3.4, ::1 ')).toEqual(['10.0.0.0/8', '1.2.3.4', '::1']);
  });
});

describe('key states', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  const key = (patch: Partial<KeyEntry>): KeyEntry => ({
    id: A,
    name: 'k',
    userId: 1,
    organizationId: null,
    lastFour: 'abcd',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    expiresAt: null,
    ipAllowlist: [],
    rateLimit: null,
    allowedRecordTypes: [],
    legacy: false,
    mode: 'live',
    previousValidUntil: null,
    ...patch,
  });

  it('is active, expiring soon, expired, in grace, legacy-signed or revoked', () => {
    expect(keyStates(key({}), now)).toEqual(['active']);
    expect(keyStates(key({ expiresAt: '2026-06-03T00:00:00Z' }), now)).toEqual(['active', 'expiring soon']);
    expect(keyStates(key({ expiresAt: '2026-07-03T00:00:00Z' }), now)).toEqual(['active']);
    expect(keyStates(key({ expiresAt: '2026-05-01T00:00:00Z' }), now)).toEqual(['expired']);
    expect(keyStates(key({ previousValidUntil: '2026-06-01T01:00:00Z', legacy: true }), now)).toEqual([
      'active',
      'in grace',
      'legacy-signed',
    ]);
    expect(keyStates(key({ deletedAt: '2026-05-01T00:00:00Z', legacy: true }), now)).toEqual(['revoked']);
  });
});

describe('who sees whose keys (as the server)', () => {
  it('oneself, an administrator their organization, super and root everyone', () => {
    const owner = { id: 5, organizationId: 2 };
    expect(seesKeysOf({ id: 5, role: 'user', organizationId: 2 }, owner)).toBe(true);
    expect(seesKeysOf({ id: 6, role: 'user', organizationId: 2 }, owner)).toBe(false);
    expect(seesKeysOf({ id: 6, role: 'admin', organizationId: 2 }, owner)).toBe(true);
    expect(seesKeysOf({ id: 6, role: 'admin', organizationId: 3 }, owner)).toBe(false);
    expect(seesKeysOf({ id: 1, role: 'super', organizationId: null }, owner)).toBe(true);
  });
});
