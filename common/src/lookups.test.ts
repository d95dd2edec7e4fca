import { describe, expect, it } from 'vitest';
import { PII_MESSAGES, piiHasPlace } from './lookups';

describe('the PII place rule', () => {
  it('searches with a zip, a state, or a street address alone (nationwide)', () => {
    expect(piiHasPlace({ zip: '62701' })).toBe(true);
    expect(piiHasPlace({ state: 'IL' })).toBe(true);
    expect(piiHasPlace({ address: '1234 N Oak St' })).toBe(true);
    expect(piiHasPlace({ address: '1234 N Oak St', state: '', zip: '' })).toBe(true);
  });

  it('refuses neither an address nor a place (a city alone does not say which state)', () => {
    expect(piiHasPlace({})).toBe(false);
    expect(piiHasPlace({ address: '', state: '', zip: '' })).toBe(false);
    expect(piiHasPlace({ city: 'Springfield' })).toBe(false);
  });

  it('says what is needed', () => {
    for (const needed of ['street address', 'zip', 'state']) expect(PII_MESSAGES.place).toContain(needed);
  });
});
