import { describe, expect, it } from 'vitest';
import { jaro, jaroWinkler } from './jaro-winkler';

describe('Jaro-Winkler', () => {
  it('gives the textbook values', () => {
    expect(jaro('MARTHA', 'MARHTA')).toBeCloseTo(0.944, 3);
    expect(jaroWinkler('MARTHA', 'MARHTA')).toBeCloseTo(0.961, 3);
    expect(jaroWinkler('DWAYNE', 'DUANE')).toBeCloseTo(0.84, 2);
    expect(jaroWinkler('DIXON', 'DICKSONX')).toBeCloseTo(0.813, 3);
  });

  it('is 1 for equal strings, 0 with nothing in common or an empty side, and symmetric', () => {
    expect(jaroWinkler('SMITH', 'SMITH')).toBe(1);
    expect(jaroWinkler('ABC', 'XYZ')).toBe(0);
    expect(jaroWinkler('', 'SMITH')).toBe(0);
    expect(jaroWinkler('', '')).toBe(0);
    expect(jaroWinkler('JOHNSON', 'JHONSON')).toBeCloseTo(jaroWinkler('JHONSON', 'JOHNSON'), 10);
  });
});
