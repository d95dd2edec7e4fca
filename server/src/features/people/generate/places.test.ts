import { US_STATES } from '@tessera/common/states';
import { describe, expect, it } from 'vitest';
import { isNanpCode } from './phones';
import { CITIES, pickCity, pickZip, STATES } from './places';
import { SeedKey } from './prng';

const inState = (zip: string, state: string) => {
  const info = STATES.find((s) => s.abbreviation === state)!;
  const prefix = Number(zip.slice(0, 3));
  return info.zip3.some(([lo, hi]) => prefix >= lo && prefix <= hi);
};

describe('places', () => {
  it('covers the 50 states and DC, all real abbreviations, no territories', () => {
    const states = STATES.map((s) => s.abbreviation);
    expect(new Set(states).size).toBe(51);
    const real = new Map(US_STATES.map((s) => [s.abbreviation, s]));
    for (const s of states) expect(real.get(s)?.territory, s).toBe(false);
  });

  it("puts every city's ZIP prefix inside its state's ranges, with a valid area code", () => {
    expect(CITIES.length).toBeGreaterThan(200);
    for (const city of CITIES) {
      expect(city.zip3, city.name).toMatch(/^\d{3}$/);
      expect(inState(city.zip3, city.state), `${city.name}, ${city.state} ${city.zip3}`).toBe(true);
      expect(isNanpCode(city.npa), `${city.name} ${city.npa}`).toBe(true);
    }
  });

  it('keeps state ZIP ranges apart', () => {
    const owner = new Map<number, string>();
    for (const s of STATES) {
      for (const [lo, hi] of s.zip3) {
        for (let p = lo; p <= hi; p++) {
          expect(owner.get(p), `${p} in ${s.abbreviation}`).toBeUndefined();
          owner.set(p, s.abbreviation);
        }
      }
    }
  });

  it('generates five-digit ZIPs and ZIP+4s in the city prefix, weighted toward big states', () => {
    const rng = new SeedKey('places').rng('x');
    const byState = new Map<string, number>();
    for (let i = 0; i < 5000; i++) {
      const city = pickCity(rng);
      const { zip, zip4 } = pickZip(rng, city);
      expect(zip).toMatch(/^\d{5}$/);
      expect(zip.startsWith(city.zip3)).toBe(true);
      expect(zip.endsWith('00')).toBe(false);
      expect(zip4).toMatch(/^\d{4}$/);
      byState.set(city.state, (byState.get(city.state) ?? 0) + 1);
    }
    expect(byState.get('CA')!).toBeGreaterThan(byState.get('WY') ?? 0);
    expect(byState.get('TX')!).toBeGreaterThan(byState.get('VT') ?? 0);
  });
});
