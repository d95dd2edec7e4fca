import { describe, expect, it } from 'vitest';
import { hashWords, type Rng, SeedKey, Weighted } from './prng';

describe('seeded randomness', () => {
  it('gives the same numbers for the same seed, on any machine (fixed expected values)', () => {
    const a = new SeedKey('42').rng('test');
    const b = new SeedKey('42').rng('test');
    const first = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(first);
    // pinned: a change to the generator changes every generated graph, so it must be deliberate
    expect(first).toMatchInlineSnapshot(`
      [
        282391609,
        3196938417,
        1560834962,
        3475231650,
        1447016837,
      ]
    `);
  });

  it('separates seeds, labels and indexes into independent streams', () => {
    const key = new SeedKey('42');
    const draws = (r: Rng) => Array.from({ length: 4 }, () => r.next()).join(',');
    const streams = [
      draws(key.rng('household', 0)),
      draws(key.rng('household', 1)),
      draws(key.rng('queries', 0)),
      draws(new SeedKey('43').rng('household', 0)),
      draws(key.rng('household', 2 ** 32)),
    ];
    expect(new Set(streams).size).toBe(streams.length);
    expect(hashWords('ab', 'c')).not.toEqual(hashWords('a', 'bc'));
  });

  it('draws integers in range, uniformly enough', () => {
    const rng = new SeedKey('range').rng('x');
    const buckets = new Array(10).fill(0);
    for (let i = 0; i < 20_000; i++) {
      const n = rng.below(10);
      expect(n).toBeGreaterThanOrEqual(0);
      expect(n).toBeLessThan(10);
      buckets[n]++;
    }
    for (const count of buckets) expect(count).toBeGreaterThan(1_700);
    for (let i = 0; i < 1000; i++) {
      const n = rng.between(-3, 3);
      expect(n >= -3 && n <= 3 && Number.isInteger(n)).toBe(true);
    }
  });

  it('picks weighted items in proportion and never a zero-weight one', () => {
    const rng = new SeedKey('weights').rng('x');
    const w = new Weighted(['a', 'b', 'never'], [1, 3, 0]);
    const counts = { a: 0, b: 0, never: 0 };
    for (let i = 0; i < 8000; i++) counts[w.pick(rng) as keyof typeof counts]++;
    expect(counts.never).toBe(0);
    expect(counts.b / counts.a).toBeGreaterThan(2.5);
    expect(counts.b / counts.a).toBeLessThan(3.5);
    expect(() => new Weighted(['a'], [0.5])).toThrow();
  });

  it('samples distinct items', () => {
    const rng = new SeedKey('sample').rng('x');
    const picked = rng.sample([1, 2, 3, 4, 5, 6], 4);
    expect(new Set(picked).size).toBe(4);
  });
});
