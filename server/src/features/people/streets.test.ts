import { describe, expect, it } from 'vitest';
import {
  normalizeAddress,
  normalizeAddressLine,
  STREET_SUFFIXES,
  suffixAbbreviation,
  suffixFullName,
  UNIT_DESIGNATORS,
  unitAbbreviation,
} from './streets';

describe('USPS street suffixes', () => {
  it('maps the common suffixes to their standard abbreviations and back', () => {
    const pairs: [string, string][] = [
      ['Street', 'ST'],
      ['Avenue', 'AVE'],
      ['Boulevard', 'BLVD'],
      ['Road', 'RD'],
      ['Drive', 'DR'],
      ['Lane', 'LN'],
      ['Court', 'CT'],
      ['Place', 'PL'],
      ['Terrace', 'TER'],
      ['Circle', 'CIR'],
      ['Highway', 'HWY'],
      ['Parkway', 'PKWY'],
      ['Trail', 'TRL'],
      ['Way', 'WAY'],
    ];
    for (const [full, abbr] of pairs) {
      expect(suffixAbbreviation(full)).toBe(abbr);
      expect(suffixAbbreviation(abbr.toLowerCase())).toBe(abbr);
      expect(suffixFullName(abbr)).toBe(full);
    }
    expect(suffixAbbreviation('Av.')).toBe('AVE');
    expect(suffixAbbreviation('Blvd.')).toBe('BLVD');
    expect(suffixAbbreviation('Oak')).toBeUndefined();
    expect(new Set(STREET_SUFFIXES.map((s) => s.abbreviation)).size).toBe(STREET_SUFFIXES.length);
  });

  it('maps unit designators', () => {
    expect(unitAbbreviation('Apartment')).toBe('APT');
    expect(unitAbbreviation('apt.')).toBe('APT');
    expect(unitAbbreviation('Suite')).toBe('STE');
    expect(unitAbbreviation('Unit')).toBe('UNIT');
    expect(unitAbbreviation('#')).toBe('#');
    expect(UNIT_DESIGNATORS.map((u) => u.abbreviation)).toEqual(expect.arrayContaining(['APT', 'STE', 'UNIT']));
  });
});

describe('address normalization', () => {
  it('writes lines the USPS way', () => {
    expect(normalizeAddress('123 n oak street apt. 4b')).toEqual({ street: '123 N OAK ST', unit: 'APT 4B' });
    expect(normalizeAddressLine('  123   North  Oak St.,  Apartment 4B ')).toBe('123 N OAK ST APT 4B');
    expect(normalizeAddressLine('500 Elm Boulevard Suite 200')).toBe('500 ELM BLVD STE 200');
    expect(normalizeAddressLine('77 Main St #5')).toBe('77 MAIN ST # 5');
    expect(normalizeAddressLine('77 Main St # 5')).toBe('77 MAIN ST # 5');
    expect(normalizeAddressLine('12 Oak Street North')).toBe('12 OAK ST N');
    expect(normalizeAddressLine('100 Main St Rear')).toBe('100 MAIN ST REAR');
  });

  it('leaves suffix-like and direction-like words that are part of the name', () => {
    expect(normalizeAddressLine('123 Park Avenue')).toBe('123 PARK AVE');
    expect(normalizeAddressLine('9 North Street')).toBe('9 NORTH ST');
    expect(normalizeAddressLine('1234 N Front St')).toBe('1234 N FRONT ST');
    expect(normalizeAddressLine('40 Cherry Hill Rd')).toBe('40 CHERRY HILL RD');
    expect(normalizeAddressLine('1600 Broadway')).toBe('1600 BROADWAY');
    expect(normalizeAddressLine('12 East West Highway')).toBe('12 E WEST HWY');
  });

  it('makes the abbreviated and spelled-out forms equal', () => {
    expect(normalizeAddressLine('4280 E Evergreen Lane')).toBe(normalizeAddressLine('4280 East Evergreen Ln'));
    expect(normalizeAddressLine('1 Lakeview Terrace Unit 3')).toBe(normalizeAddressLine('1 LAKEVIEW TER UNIT 3'));
  });
});
