import { describe, expect, it } from 'vitest';
import { compare, type Field, type Level, type PiiFields } from './comparisons';
import { DEFAULT_MODEL, estimate, SWAP_PENALTY, score, scoreCandidate } from './model';

const person: PiiFields = {
  firstName: 'Robert',
  lastName: 'Johnson',
  address: '1234 North Oak Street Apt 4B',
  city: 'Springfield',
  state: 'IL',
  zip: '62704',
};

describe('field comparisons', () => {
  it('finds each agreement level the model weighs', () => {
    expect(compare(person, person)).toEqual({
      firstName: 'exact',
      lastName: 'exact',
      street: 'exact',
      city: 'exact',
      state: 'exact',
      zip: 'exact',
    });
    const noisy = compare(
      { ...person, firstName: 'bob', lastName: 'Jhonson', address: '1234 N Oak St', zip: '62799' },
      person,
    );
    expect(noisy).toMatchObject({ firstName: 'alias', lastName: 'close', street: 'exact', zip: 'close' });
    expect(compare({ ...person, address: '1234 N Oak St Apt 9' }, person).street).toBe('alias');
    expect(compare({ ...person, firstName: 'Maria', city: '', zip: '10001' }, person)).toMatchObject({
      firstName: 'different',
      city: 'missing',
      zip: 'different',
    });
  });
});

describe('the Fellegi-Sunter score', () => {
  it('scores agreement high, disagreement low, and explains each field', () => {
    const same = score(DEFAULT_MODEL, compare(person, person));
    expect(same.score).toBeGreaterThanOrEqual(99);
    const other = score(
      DEFAULT_MODEL,
      compare({ ...person, firstName: 'Maria', lastName: 'Garcia', address: '9 Elm Ave' }, person),
    );
    expect(other.score).toBeLessThan(5);
    const noisy = score(DEFAULT_MODEL, compare({ ...person, firstName: 'Bob', address: '1234 N Oak St' }, person));
    expect(noisy.score).toBeGreaterThan(90);
    expect(noisy.explain.firstName.level).toBe('alias');
    expect(noisy.explain.firstName.weight).toBeGreaterThan(0);
    expect(other.explain.lastName.weight).toBeLessThan(0);
  });

  it('leaves a missing field out of the weight', () => {
    const all = score(DEFAULT_MODEL, compare(person, person));
    const withoutCity = score(DEFAULT_MODEL, compare({ ...person, city: '' }, person));
    expect(withoutCity.explain.city).toEqual({ level: 'missing', weight: 0 });
    expect(withoutCity.weight).toBeCloseTo(all.weight - all.explain.city.weight, 1);
  });

  it('estimates m and u from labelled pairs, with smoothing', () => {
    const levels = (level: Level) =>
      Object.fromEntries(
        (['firstName', 'lastName', 'street', 'city', 'state', 'zip'] as Field[]).map((f) => [f, level]),
      ) as Record<Field, Level>;
    const pairs = [
      ...Array.from({ length: 9 }, () => ({ levels: levels('exact'), match: true })),
      { levels: levels('close'), match: true },
      ...Array.from({ length: 90 }, () => ({ levels: levels('different'), match: false })),
    ];
    const model = estimate(pairs);
    expect(model.m.lastName.exact).toBeCloseTo(10 / 14, 5);
    expect(model.m.lastName.close).toBeCloseTo(2 / 14, 5);
    expect(model.u.lastName.different).toBeCloseTo(91 / 94, 5);
    expect(model.prior).toBeCloseTo(11 / 102, 5);
    expect(score(model, levels('exact')).score).toBeGreaterThan(score(model, levels('different')).score);
  });

  it('takes swapped first and last names at a small cost, and ranks by weight', () => {
    const swapped = scoreCandidate(DEFAULT_MODEL, { ...person, firstName: 'Johnson', lastName: 'Robert' }, person);
    const straight = scoreCandidate(DEFAULT_MODEL, person, person);
    expect(swapped.swapped).toBe(true);
    expect(straight.swapped).toBe(false);
    expect(swapped.weight).toBeCloseTo(straight.weight - SWAP_PENALTY, 5);
    expect(swapped.score).toBeGreaterThan(90);
    // Both round to 100, yet the weight still tells the better one.
    const sibling = scoreCandidate(DEFAULT_MODEL, person, { ...person, firstName: 'Roberta' });
    expect(straight.weight).toBeGreaterThan(sibling.weight);
  });
});
