/**
 * A keyed one-to-one shuffle of 0..size-1 (a four-round Feistel network on the smallest even number of bits
 * that holds size, walking the cycle until the value falls in range). The generator numbers the keys it hands
 * out (phone numbers, IPs, device ids, VINs) 0, 1, 2, ... and shuffles the numbers through one of these: every
 * key is unique by construction, keeps no memory of the ones given, and still looks random. Numbers from the top
 * of the range, which the graph never reaches, give keys certain to be absent (for negative queries).
 */
import { mix32 } from './prng';

export class KeyedPermutation {
  private readonly halfBits: number;
  private readonly halfSize: number;
  private readonly mask: number;

  constructor(
    readonly size: number,
    private readonly keys: readonly [number, number, number, number],
  ) {
    if (!Number.isInteger(size) || size < 2 || size > 2 ** 32) throw new Error(`Bad permutation size ${size}`);
    let bits = 2;
    while (2 ** bits < size) bits += 2;
    this.halfBits = bits / 2;
    this.halfSize = 2 ** this.halfBits;
    this.mask = this.halfSize - 1;
  }

  private round(value: number, key: number): number {
    return mix32(value ^ key) & this.mask;
  }

  private encrypt(x: number): number {
    let left = Math.floor(x / this.halfSize);
    let right = x % this.halfSize;
    for (const key of this.keys) {
      const next = (left ^ this.round(right, key)) >>> 0;
      left = right;
      right = next;
    }
    return left * this.halfSize + right;
  }

  /** The value at position index (0 ≤ index < size). */
  at(index: number): number {
    if (index < 0 || index >= this.size || !Number.isInteger(index))
      throw new RangeError(`Index ${index} out of range`);
    let x = this.encrypt(index);
    while (x >= this.size) x = this.encrypt(x);
    return x;
  }
}

/**
 * Hands out positions 0, 1, 2, ... of a permutation, keeping the top `reserved` positions for keys that must not
 * be in the graph.
 */
export class UniqueSpace {
  private used = 0;
  private negatives = 0;

  constructor(
    private readonly permutation: KeyedPermutation,
    private readonly reserved: number,
    private readonly what: string,
  ) {}

  /** The next unused value. */
  take(): number {
    if (this.used >= this.permutation.size - this.reserved) {
      throw new Error(`The generator ran out of unique ${this.what}; generate fewer identities.`);
    }
    return this.permutation.at(this.used++);
  }

  /** A value the graph never takes. */
  absent(): number {
    if (this.negatives >= this.reserved) throw new Error(`No reserved ${this.what} left for negative queries.`);
    return this.permutation.at(this.permutation.size - 1 - this.negatives++);
  }

  get taken(): number {
    return this.used;
  }
}
