import { describe, expect, it } from 'vitest';
import { isNanpCode, PhoneNumbers, rawPhone } from './phones';
import { SeedKey } from './prng';

const NANP = /^\+1([2-9]\d\d)([2-9]\d\d)(\d{4})$/;

describe('phone numbers', () => {
  it('are E.164 NANP numbers with valid area codes and exchanges, never N11 or 555', () => {
    const phones = new PhoneNumbers(new SeedKey('phones'));
    const numbers = Array.from({ length: 3000 }, (_, i) => phones.take(['415', '212', '907'][i % 3]!));
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const number of numbers) {
      const m = NANP.exec(number);
      expect(m, number).not.toBeNull();
      const [, npa, nxx] = m!;
      expect(isNanpCode(npa!)).toBe(true);
      expect(isNanpCode(nxx!)).toBe(true);
      expect(nxx).not.toBe('555');
    }
    expect(numbers.filter((n) => n.startsWith('+1415'))).toHaveLength(1000);
  });

  it('keeps numbers for negative queries apart from those handed out', () => {
    const phones = new PhoneNumbers(new SeedKey('phones'));
    const taken = new Set(Array.from({ length: 2000 }, () => phones.take('415')));
    const absent = Array.from({ length: 200 }, () => phones.absent('415'));
    expect(absent.every((n) => NANP.test(n) && !taken.has(n))).toBe(true);
  });

  it('writes raw shapes people type, with the same digits', () => {
    const rng = new SeedKey('raw').rng('x');
    const shapes = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const raw = rawPhone(rng, '+14155550123');
      expect(raw.replace(/\D/g, '').replace(/^1/, '')).toBe('4155550123');
      shapes.add(raw);
    }
    expect(shapes).toContain('(415) 555-0123');
    expect(shapes.size).toBeGreaterThanOrEqual(4);
  });

  it('knows what a valid area code looks like', () => {
    expect(isNanpCode('415')).toBe(true);
    expect(isNanpCode('011')).toBe(false);
    expect(isNanpCode('123')).toBe(false);
    expect(isNanpCode('911')).toBe(false);
  });
});
