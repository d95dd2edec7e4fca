/**
 * North American numbers: a real area code (NPA) of the person's city or another, then an exchange (NXX) of
 * 200-999 that is not N11 and not 555, then four digits. Each area code hands its numbers out through a keyed
 * permutation, so no two people get the same number unless they share a household landline.
 */
import { KeyedPermutation, UniqueSpace } from './permutation';
import type { SeedKey } from './prng';
import { type Rng, Weighted } from './prng';

const EXCHANGES: readonly number[] = Array.from({ length: 800 }, (_, i) => 200 + i).filter(
  (nxx) => nxx % 100 !== 11 && nxx !== 555,
);
const LINES = 10_000;
/** Numbers per area code kept back for negative queries. */
const RESERVED = 50_000;

/** A valid-shaped NANP area code or exchange: first digit 2-9, not N11. */
export function isNanpCode(code: string): boolean {
  return /^[2-9]\d\d$/.test(code) && code.slice(1) !== '11';
}

export class PhoneNumbers {
  private readonly spaces = new Map<string, UniqueSpace>();

  constructor(private readonly seed: SeedKey) {}

  private space(npa: string): UniqueSpace {
    let space = this.spaces.get(npa);
    if (!space) {
      const permutation = new KeyedPermutation(EXCHANGES.length * LINES, this.seed.rng('phones', Number(npa)).words());
      space = new UniqueSpace(permutation, RESERVED, `phone numbers in area code ${npa}`);
      this.spaces.set(npa, space);
    }
    return space;
  }

  private format(npa: string, index: number): string {
    const nxx = EXCHANGES[Math.floor(index / LINES)]!;
    return `+1${npa}${nxx}${String(index % LINES).padStart(4, '0')}`;
  }

  /** A new number in the area code, in E.164 form (+14155550123). */
  take(npa: string): string {
    return this.format(npa, this.space(npa).take());
  }

  /** A well-formed number in the area code that nobody in the graph has. */
  absent(npa: string): string {
    return this.format(npa, this.space(npa).absent());
  }
}

export const MOBILE_CARRIERS = Weighted.of<string>([
  ['Verizon Wireless', 34],
  ['AT&T Mobility', 31],
  ['T-Mobile', 26],
  ['US Cellular', 2],
  ['Cricket Wireless', 3],
  ['Metro by T-Mobile', 2],
  ['Boost Mobile', 1],
  ['Visible', 1],
]);

export const LANDLINE_CARRIERS = Weighted.of<string>([
  ['AT&T', 25],
  ['Verizon', 18],
  ['Comcast', 16],
  ['Spectrum', 14],
  ['CenturyLink', 10],
  ['Frontier', 8],
  ['Cox', 5],
  ['Windstream', 3],
  ['Consolidated Communications', 1],
]);

/** An E.164 number written the way people type it: '(415) 555-0123', '415-555-0123', ... */
export function rawPhone(rng: Rng, e164: string): string {
  const npa = e164.slice(2, 5);
  const nxx = e164.slice(5, 8);
  const line = e164.slice(8);
  switch (rng.below(5)) {
    case 0:
      return `(${npa}) ${nxx}-${line}`;
    case 1:
      return `${npa}-${nxx}-${line}`;
    case 2:
      return `${npa}.${nxx}.${line}`;
    case 3:
      return `1-${npa}-${nxx}-${line}`;
    default:
      return `+1 ${npa} ${nxx} ${line}`;
  }
}
