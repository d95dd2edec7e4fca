import { describe, expect, it } from 'vitest';
import {
  normalizeDevice,
  normalizeEmail,
  normalizeIdentityId,
  normalizeIp,
  normalizeLookupVin,
  normalizeMd5,
  normalizePhone,
  normalizeSha256,
} from './lookup-inputs';

describe('lookup inputs (issue 4: normalized as the graph stores them, or null)', () => {
  it('e-mail: case and spaces', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
    expect(normalizeEmail('ada @ example.com')).toBe('ada@example.com');
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'ada@example', `${'a'.repeat(95)}@x.com`, 'a\u0000@x.com']) {
      expect(normalizeEmail(bad), bad).toBeNull();
    }
    // People's addresses may have non-ASCII local parts, unlike accounts'.
    expect(normalizeEmail('José@Example.com')).toBe('josé@example.com');
  });

  it('phone: to E.164', () => {
    for (const raw of ['(415) 555-0123', '415.555.0123', '4155550123', '1 415 555 0123', '+1 415-555-0123']) {
      expect(normalizePhone(raw), raw).toBe('+14155550123');
    }
    expect(normalizePhone('+44 20 7946 0958')).toBe('+442079460958');
    for (const bad of [
      '',
      '555-0123',
      '(015) 555-0123',
      '415 155 0123',
      '44 20 7946 0958',
      '+0 123 456 789',
      'call me',
      '+1234567890123456',
    ]) {
      expect(normalizePhone(bad), bad).toBeNull();
    }
  });

  it('hashes: lowercase hex of the right length', () => {
    expect(normalizeMd5(' 5D41402ABC4B2A76B9719D911017C592 ')).toBe('5d41402abc4b2a76b9719d911017c592');
    expect(normalizeMd5('5d41402abc4b2a76b9719d911017c59')).toBeNull();
    expect(normalizeMd5('zz41402abc4b2a76b9719d911017c592')).toBeNull();
    const sha = '2CF24DBA5FB0A30E26E83B2AC5B9E29E1B161E5C1FA7425E73043362938B9824';
    expect(normalizeSha256(sha)).toBe(sha.toLowerCase());
    expect(normalizeSha256(sha.slice(1))).toBeNull();
  });

  it('IP: IPv4 dotted quads and IPv6 in RFC 5952 form', () => {
    expect(normalizeIp(' 192.168.0.1 ')).toBe('192.168.0.1');
    for (const bad of ['256.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.-4', 'a.b.c.d', '']) {
      expect(normalizeIp(bad), bad).toBeNull();
    }
    expect(normalizeIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(normalizeIp('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(normalizeIp('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(normalizeIp('::')).toBe('::');
    expect(normalizeIp('::1')).toBe('::1');
    expect(normalizeIp('fe80::')).toBe('fe80::');
    expect(normalizeIp('::ffff:192.0.2.128')).toBe('192.0.2.128');
    expect(normalizeIp('::FFFF:c000:0280')).toBe('192.0.2.128');
    for (const bad of ['1::2::3', '2001:db8::g', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', '12345::', '::ffff:300.1.1.1']) {
      expect(normalizeIp(bad), bad).toBeNull();
    }
  });

  it('device: UUID-shaped advertising ids', () => {
    expect(normalizeDevice('6D92078A-8246-4BA4-AE5B-76104861E7DC')).toBe('6d92078a-8246-4ba4-ae5b-76104861e7dc');
    expect(normalizeDevice('6d92078a82464ba4ae5b76104861e7dc')).toBe('6d92078a-8246-4ba4-ae5b-76104861e7dc');
    for (const bad of [
      '6d92078a-8246-4ba4-ae5b',
      '6d92078a-82464ba4-ae5b-76104861e7dc',
      '00000000-0000-0000-0000-000000000000',
      'x',
    ]) {
      expect(normalizeDevice(bad), bad).toBeNull();
    }
  });

  it('VIN: uppercase without separators, and only with a valid check digit', () => {
    expect(normalizeLookupVin(' 1m8gdm9axkp042788 ')).toBe('1M8GDM9AXKP042788');
    expect(normalizeLookupVin('1M8GDM9A1KP042788')).toBeNull();
    expect(normalizeLookupVin('1M8GDM9AXKP04278')).toBeNull();
  });

  it('identity id: a positive safe integer', () => {
    expect(normalizeIdentityId(' 42 ')).toBe(42);
    for (const bad of ['0', '-1', '1.5', '007', 'abc', '99999999999999999']) {
      expect(normalizeIdentityId(bad), bad).toBeNull();
    }
  });
});
