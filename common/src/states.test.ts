import { describe, expect, it } from 'vitest';
import { findState, US_STATES } from './states';

describe('US states (spec §3 state selector)', () => {
  it('lists the 50 states, DC and the territories, with unique two-letter abbreviations', () => {
    const states = US_STATES.filter((s) => !s.territory);
    expect(states).toHaveLength(51); // 50 and DC
    expect(US_STATES.filter((s) => s.territory).map((s) => s.abbreviation)).toEqual([
      'AS',
      'GU',
      'MP',
      'PR',
      'UM',
      'VI',
    ]);
    expect(new Set(US_STATES.map((s) => s.abbreviation)).size).toBe(US_STATES.length);
    expect(US_STATES.every((s) => /^[A-Z]{2}$/.test(s.abbreviation))).toBe(true);
  });

  it('flags the contiguous United States: the lower 48 and DC', () => {
    const contiguous = US_STATES.filter((s) => s.contiguous).map((s) => s.abbreviation);
    expect(contiguous).toHaveLength(49);
    expect(contiguous).toContain('DC');
    expect(contiguous).not.toContain('AK');
    expect(contiguous).not.toContain('HI');
    expect(contiguous).not.toContain('PR');
  });

  it('finds a state by abbreviation or name in any case', () => {
    expect(findState(' ca ')?.name).toBe('California');
    expect(findState('new york')?.abbreviation).toBe('NY');
    expect(findState('Puerto Rico')?.territory).toBe(true);
    expect(findState('XX')).toBeUndefined();
  });
});
