/**
 * Seeded randomness for the generator. Everything is 32-bit integer arithmetic (Math.imul, shifts) and exact
 * double operations, so the same seed gives the same numbers on every machine and Node version: no Math.random,
 * no Math.log/exp/pow, whose last bits are not specified.
 */

/** A 32-bit finalizer: every input bit flips about half of the output bits. */
export function mix32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Four 32-bit words from any number of strings and integers (FNV-1a over UTF-16 units, then mixed). */
export function hashWords(...parts: (string | number)[]): [number, number, number, number] {
  let h = 0x811c9dc5;
  const feed = (unit: number) => {
    h = Math.imul(h ^ unit, 0x01000193) >>> 0;
  };
  for (const part of parts) {
    const text = typeof part === 'number' ? `#${part}` : part;
    for (let i = 0; i < text.length; i++) feed(text.charCodeAt(i));
    feed(0x1f); // separator, so ('ab','c') and ('a','bc') differ
  }
  const a = mix32(h ^ 0x9e3779b9);
  const b = mix32(a + 0x6a09e667);
  const c = mix32(b ^ 0xbb67ae85);
  const d = mix32(c + 0x3c6ef372);
  return [a, b, c, d];
}

/**
 * A small fast generator with 128 bits of state (the "small fast counting" design: three mixed words and a
 * counter, so no seed falls into a short cycle).
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(words: readonly [number, number, number, number]) {
    [this.a, this.b, this.c, this.d] = words;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A uniform unsigned 32-bit integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform integer in [0, n), for n up to 2^21 (the product stays exact in a double). */
  below(n: number): number {
    return Math.floor((this.next() * n) / 4294967296);
  }

  /** A uniform integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }

  /** True with probability p (0..1). */
  chance(p: number): boolean {
    return this.next() < p * 4294967296;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }

  /** k distinct items, in a random order (k ≤ items.length). */
  sample<T>(items: readonly T[], k: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    for (let i = 0; i < k && pool.length > 0; i++) {
      const j = this.below(pool.length);
      out.push(pool[j]!);
      pool[j] = pool[pool.length - 1]!;
      pool.pop();
    }
    return out;
  }

  /** Four fresh words, e.g. to key a permutation. */
  words(): [number, number, number, number] {
    return [this.next(), this.next(), this.next(), this.next()];
  }
}

/** The root of every stream in one generated graph: derive independent generators by label and index. */
export class SeedKey {
  private readonly root: [number, number, number, number];

  constructor(readonly seed: string) {
    this.root = hashWords('tessera-generate', seed);
  }

  /** An independent generator for one label (and optionally one index, e.g. a household number). */
  rng(label: string, index = 0): Rng {
    const [a, b, c, d] = this.root;
    const l = hashWords(label);
    const i = index >>> 0;
    const hi = Math.floor(index / 4294967296) >>> 0;
    return new Rng([
      mix32(a ^ l[0] ^ i),
      mix32((b + l[1] + Math.imul(i, 0x9e3779b9)) | 0),
      mix32(c ^ l[2] ^ hi),
      mix32((d + l[3] + 0x632be5ab) | 0),
    ]);
  }
}

/** Items with integer weights, picked in proportion to them. */
export class Weighted<T> {
  private readonly cumulative: number[];
  readonly total: number;

  constructor(
    readonly items: readonly T[],
    weights: readonly number[],
  ) {
    if (items.length === 0 || items.length !== weights.length) throw new Error('Weighted needs one weight per item');
    let sum = 0;
    this.cumulative = weights.map((w) => {
      if (!Number.isInteger(w) || w < 0) throw new Error(`Weights are whole numbers, not ${w}`);
      sum += w;
      return sum;
    });
    if (sum <= 0 || sum > 2 ** 21) throw new Error(`Weights must add up to 1..2^21, not ${sum}`);
    this.total = sum;
  }

  /** From `[item, weight]` pairs. */
  static of<T>(pairs: readonly (readonly [T, number])[]): Weighted<T> {
    return new Weighted(
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
    );
  }

  pick(rng: Rng): T {
    const r = rng.below(this.total);
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > r) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
}

/** Counts 0..5 with the given weights: the "0-5 per person" record counts. */
export const countsUpTo5 = (weights: readonly [number, number, number, number, number, number]) =>
  new Weighted([0, 1, 2, 3, 4, 5], weights);
