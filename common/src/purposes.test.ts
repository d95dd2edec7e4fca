import { describe, expect, it } from 'vitest';
import {
  isPurpose,
  PURPOSE_IDS,
  PURPOSE_MESSAGES,
  PURPOSES,
  parsePurpose,
  purposeLabel,
  purposeRefusal,
  purposesProblem,
} from './purposes';

describe('permissible purposes', () => {
  it('lists each purpose once, under GLBA, DPPA or FCRA, with an id naming its law', () => {
    expect(new Set(PURPOSE_IDS).size).toBe(PURPOSES.length);
    for (const p of PURPOSES) {
      expect(p.id).toMatch(/^(glba|dppa|fcra)-[a-z]+(-[a-z]+)*$/);
      expect(p.id.startsWith(p.law.toLowerCase())).toBe(true);
      expect(p.label.length).toBeGreaterThan(0);
    }
    expect(isPurpose('glba-fraud-prevention')).toBe(true);
    expect(isPurpose('GLBA-fraud-prevention')).toBe(false);
    expect(purposeLabel('fcra-employment')).toBe("For employment purposes, with the consumer's written consent");
  });

  it('parses what a call names: none, an id, or an error naming the value', () => {
    expect(parsePurpose(undefined)).toEqual({ purpose: null });
    expect(parsePurpose('  ')).toEqual({ purpose: null });
    expect(parsePurpose(' dppa-insurance ')).toEqual({ purpose: 'dppa-insurance' });
    expect(parsePurpose('curiosity')).toEqual({
      error: `"curiosity" is not a permissible purpose. Use one of: ${PURPOSE_IDS.join(', ')}.`,
    });
    expect(parsePurpose(['dppa-insurance', 'fcra-employment'])).toEqual({
      error: 'Please name one permissible purpose.',
    });
    expect(parsePurpose(`x\u0000${'y'.repeat(100)}`)).toEqual({
      error: PURPOSE_MESSAGES.unknown(`x?${'y'.repeat(58)}`),
    });
  });

  it('checks a contract list: known ids, each once', () => {
    expect(purposesProblem([])).toBeUndefined();
    expect(purposesProblem(['fcra-employment', 'dppa-insurance'])).toBeUndefined();
    expect(purposesProblem(['fcra-employment', 'spying'])).toBe(PURPOSE_MESSAGES.unknown('spying'));
    expect(purposesProblem(['fcra-employment', 'fcra-employment'])).toBe(
      'fcra-employment is listed twice; please list each permissible purpose once.',
    );
  });

  it('refuses a call without a purpose, or with one the contract lacks, naming the allowed ones', () => {
    expect(purposeRefusal(null, null)).toBeNull();
    expect(purposeRefusal([], 'fcra-employment')).toBeNull();
    expect(purposeRefusal(['fcra-employment', 'dppa-insurance'], 'dppa-insurance')).toBeNull();
    expect(purposeRefusal(['fcra-employment', 'dppa-insurance'], null)).toBe(
      'This lookup needs a permissible purpose. Your contract allows: fcra-employment, dppa-insurance. Name one with purpose= or the X-Permissible-Purpose header.',
    );
    expect(purposeRefusal(['fcra-employment'], 'glba-fraud-prevention')).toBe(
      'Your contract does not allow the permissible purpose glba-fraud-prevention. It allows: fcra-employment.',
    );
  });
});
