import { describe, expect, it } from 'vitest';
import { formalNamesOf, NICKNAMES, nicknamesOf, sameGivenName } from './nicknames';

describe('nickname table', () => {
  it('has 80+ formal names, each with at least one nickname', () => {
    expect(NICKNAMES.size).toBeGreaterThanOrEqual(80);
    for (const [formal, nicks] of NICKNAMES) {
      expect(nicks.length, formal).toBeGreaterThan(0);
      expect(nicks, formal).not.toContain(formal);
    }
  });

  it('knows the common ones both ways, in any case', () => {
    expect(nicknamesOf('Robert')).toEqual(expect.arrayContaining(['Bob', 'Rob', 'Bobby']));
    expect(nicknamesOf('william')).toEqual(expect.arrayContaining(['Bill', 'Will', 'Billy']));
    expect(nicknamesOf('ELIZABETH')).toEqual(expect.arrayContaining(['Liz', 'Beth', 'Betty']));
    expect(formalNamesOf('bob')).toEqual(['Robert']);
    expect(formalNamesOf('Sam')).toEqual(expect.arrayContaining(['Samantha', 'Samuel']));
    expect(nicknamesOf('Zelda')).toEqual([]);
    expect(formalNamesOf('Zelda')).toEqual([]);
  });

  it('treats a name, its nicknames and sibling nicknames as the same given name', () => {
    expect(sameGivenName('Robert', 'bob')).toBe(true);
    expect(sameGivenName('Bob', 'Rob')).toBe(true);
    expect(sameGivenName('Bill', 'William')).toBe(true);
    expect(sameGivenName(' Mary ', 'mary')).toBe(true);
    expect(sameGivenName('Robert', 'William')).toBe(false);
    expect(sameGivenName('Bob', 'Bill')).toBe(false);
  });
});
