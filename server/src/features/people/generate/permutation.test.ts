import { describe, expect, it } from 'vitest';
import { KeyedPermutation, UniqueSpace } from './permutation';
import { SeedKey } from './prng';

const keys = () => new SeedKey('perm').rng('k').words();

describe('keyed permutation', () => {
  it('is one-to-one onto 0..size-1 for every size, odd ones included', () => {
    for (const size of [2, 3, 5, 16, 17, 100, 257, 1000, 4097]) {
      const p = new KeyedPermutation(size, keys());
      const values = Array.from({ length: size }, (_, i) => p.at(i));
      expect(new Set(values).size).toBe(size);
      expect(values.every((v) => v >= 0 && v < size)).toBe(true);
    }
  });

  it('shuffles: neighbouring positions land far apart', () => {
    const p = new KeyedPermutation(1_000_000, keys());
    const values = Array.from({ length: 20 }, (_, i) => p.at(i));
    const gaps = values.slice(1).map((v, i) => Math.abs(v - values[i]!));
    expect(gaps.filter((g) => g > 1000).length).toBeGreaterThan(15);
  });

  it('handles a full 32-bit space', () => {
    const p = new KeyedPermutation(2 ** 32, keys());
    const values = Array.from({ length: 1000 }, (_, i) => p.at(i));
    expect(new Set(values).size).toBe(1000);
    expect(values.every((v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32)).toBe(true);
  });
});

describe('unique space', () => {
  it('hands out distinct values and keeps reserved ones for absent keys', () => {
    const space = new UniqueSpace(new KeyedPermutation(50, keys()), 10, 'things');
    const taken = Array.from({ length: 40 }, () => space.take());
    const absent = Array.from({ length: 10 }, () => space.absent());
    expect(new Set([...taken, ...absent]).size).toBe(50);
    expect(() => space.take()).toThrow('ran out of unique things');
    expect(() => space.absent()).toThrow();
  });
});
