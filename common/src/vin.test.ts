import { describe, expect, it } from 'vitest';
import { isValidVin, modelYearCode, modelYearOf, normalizeVin, vinCheckDigit, withCheckDigit } from './vin';

describe('VIN check digit (49 CFR 565)', () => {
  it('accepts the standard worked example and other real VINs', () => {
    expect(isValidVin('1M8GDM9AXKP042788')).toBe(true);
    expect(vinCheckDigit('1M8GDM9AXKP042788')).toBe('X');
    expect(isValidVin('11111111111111111')).toBe(true);
    expect(isValidVin('1HGCM82633A004352')).toBe(true);
  });

  it('rejects a wrong check digit, a changed character, forbidden letters and bad lengths', () => {
    expect(isValidVin('1M8GDM9A1KP042788')).toBe(false);
    expect(isValidVin('1M8GDM9AXKP042789')).toBe(false);
    expect(isValidVin('1M8GDM9AXKO042788')).toBe(false); // O is not allowed
    expect(isValidVin('1M8GDM9AXKP04278')).toBe(false);
    expect(isValidVin('')).toBe(false);
  });

  it('normalizes case, spaces and dashes before checking', () => {
    expect(normalizeVin(' 1m8gdm9axkp-042788 ')).toBe('1M8GDM9AXKP042788');
    expect(isValidVin(' 1m8gdm9axkp042788 ')).toBe(true);
  });

  it('puts the check digit in position 9', () => {
    const vin = withCheckDigit('1M8GDM9A0KP042788');
    expect(vin).toBe('1M8GDM9AXKP042788');
  });
});

describe('model year (position 10)', () => {
  it('codes years on the 30-year cycle without I, O, Q, U, Z and 0', () => {
    expect(modelYearCode(1980)).toBe('A');
    expect(modelYearCode(2000)).toBe('Y');
    expect(modelYearCode(2001)).toBe('1');
    expect(modelYearCode(2009)).toBe('9');
    expect(modelYearCode(2010)).toBe('A');
    expect(modelYearCode(2019)).toBe('K');
    expect(modelYearCode(2026)).toBe('T');
    expect(() => modelYearCode(1979)).toThrow();
  });

  it('reads the year back, telling the cycles apart by position 7', () => {
    expect(modelYearOf('1M8GDM9AXKP042788')).toBe(1989);
    expect(modelYearOf('5YJ3E1EA7KF000001')).toBe(2019);
    expect(modelYearOf('1HGCM82633A004352')).toBe(2003);
  });
});
