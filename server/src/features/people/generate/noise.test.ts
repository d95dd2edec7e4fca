import { describe, expect, it } from 'vitest';
import { sameGivenName } from '../nicknames';
import { normalizeAddressLine } from '../streets';
import type { Address } from './addresses';
import { FEMALE_NAMES, LAST_NAMES, MALE_NAMES } from './names';
import { addNoise, applicable, nameVariants, type PiiDraft, recase, renderPii, typo } from './noise';
import { SeedKey } from './prng';
import { editDistance, loose } from './test-graph';

const rng = () => new SeedKey('noise').rng('x');

const home: Address = {
  number: 1234,
  directional: 'N',
  directionalFull: false,
  name: 'Oak',
  suffix: 'St',
  suffixFull: false,
  unit: 'Apt 4B',
  city: 'Boston',
  state: 'MA',
  zip: '02118',
  zip4: '1234',
};
const before: Address = {
  ...home,
  number: 77,
  directional: '',
  name: 'Lake',
  suffix: 'Ave',
  unit: '',
  city: 'Worcester',
  zip: '01604',
};
const draft: PiiDraft = { firstName: 'Robert', lastName: 'Smith', address: home, zip: home.zip };
const context = { formalFirst: 'Robert', previous: before };

describe('PII noise', () => {
  it('typo: one edit (Damerau-Levenshtein) in the name, never the same name', () => {
    const r = rng();
    for (const name of [...FEMALE_NAMES, ...MALE_NAMES, ...LAST_NAMES]) {
      const out = typo(r, name);
      expect(out.toLowerCase(), name).not.toBe(name.toLowerCase());
      expect(editDistance(out.toLowerCase(), name.toLowerCase()), `${name} → ${out}`).toBe(1);
    }
  });

  it('nickname: a nickname for a formal name, the formal name for a nickname', () => {
    const r = rng();
    const noisy = addNoise(r, 'nickname', draft, context);
    expect(noisy.firstName).not.toBe('Robert');
    expect(sameGivenName(noisy.firstName, 'Robert')).toBe(true);
    const recorded = addNoise(r, 'nickname', { ...draft, firstName: 'Bob' }, context);
    expect(recorded.firstName).toBe('Robert');
    expect(nameVariants('Zelda')).toEqual([]);
    expect(applicable('nickname', { ...draft, firstName: 'Zelda' }, { ...context, formalFirst: 'Zelda' })).toBe(false);
  });

  it('swapped: first and last name exchanged', () => {
    const noisy = renderPii(addNoise(rng(), 'swapped', draft, context));
    expect([noisy.firstName, noisy.lastName]).toEqual(['Smith', 'Robert']);
  });

  it('suffix: spelled out when abbreviated and back, the same street once normalized', () => {
    const long = renderPii(addNoise(rng(), 'suffix', draft, context)).address;
    expect(long).toBe('1234 N Oak Street Apt 4B');
    const short = renderPii(addNoise(rng(), 'suffix', { ...draft, address: { ...home, suffixFull: true } }, context));
    expect(short.address).toBe('1234 N Oak St Apt 4B');
    expect(normalizeAddressLine(long)).toBe(normalizeAddressLine(short.address));
    expect(applicable('suffix', { ...draft, address: { ...home, suffix: '', name: 'Broadway' } }, context)).toBe(false);
    expect(applicable('suffix', { ...draft, address: { ...home, suffix: 'Way' } }, context)).toBe(false);
  });

  it('missingUnit: the unit dropped, the rest kept', () => {
    const noisy = renderPii(addNoise(rng(), 'missingUnit', draft, context));
    expect(noisy.address).toBe('1234 N Oak St');
    expect(applicable('missingUnit', { ...draft, address: before }, context)).toBe(false);
  });

  it('staleAddress: the previous address, city, state and ZIP', () => {
    const noisy = renderPii(addNoise(rng(), 'staleAddress', draft, context));
    expect(noisy).toEqual({
      firstName: 'Robert',
      lastName: 'Smith',
      address: '77 Lake Ave',
      city: 'Worcester',
      state: 'MA',
      zip: '01604',
    });
    expect(applicable('staleAddress', draft, { ...context, previous: null })).toBe(false);
  });

  it('missingZip: no zip input at all', () => {
    const noisy = renderPii(addNoise(rng(), 'missingZip', draft, context));
    expect('zip' in noisy).toBe(false);
  });

  it('case: another case or extra spaces, equal once case and spacing are ignored', () => {
    const r = rng();
    for (const value of ['Robert', 'Smith', '1234 N Oak St Apt 4B', 'Boston', 'II']) {
      for (let i = 0; i < 20; i++) {
        const out = recase(r, value);
        expect(out).not.toBe(value);
        expect(loose(out)).toBe(loose(value));
      }
    }
  });
});
