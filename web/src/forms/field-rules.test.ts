/** Every spec §5 message a field of the kit can show, word for word as the spec gives it. */
import { describe, expect, it } from 'vitest';
import { checkText, type TextSpec, whatFromLabel } from './field-rules';

const check = (value: string, spec: Partial<TextSpec> = {}, values: Record<string, string> = {}) =>
  checkText(value, { what: 'a name', ...spec }, values);

describe('field rules (spec §5)', () => {
  it('fails a blank or whitespace required field with "Please provide {what}."', () => {
    expect(check('')).toBe('Please provide a name.');
    expect(check('  \t ')).toBe('Please provide a name.');
    expect(check('', { what: 'an email address', rule: 'email' })).toBe('Please provide an email address.');
    expect(check('Ada')).toBeUndefined();
  });

  it('skips every check of an empty optional field, and checks it once it holds something', () => {
    for (const rule of ['email', 'url', 'zip', 'date', 'password', 'state'] as const) {
      expect(check('', { rule, optional: true }), rule).toBeUndefined();
      expect(check('   ', { rule, optional: true }), rule).toBeUndefined();
    }
    expect(check('nope', { rule: 'url', optional: true })).toBe('Please provide a valid URL.');
  });

  it('gives each rule its own message', () => {
    const cases: [TextSpec['rule'], string, string][] = [
      ['date', 'not a date', 'Please provide a valid date.'],
      ['domain', 'acme', 'Please provide a valid domain name.'],
      ['email', 'ada@', 'Please provide a valid email address.'],
      ['integer', '1.5', 'Please provide an integer.'],
      ['number', '1.2.3', 'Please provide a valid number.'],
      [
        'password',
        'password1',
        'Please provide a password that is at least 8 characters long and contains at least one uppercase letter, lowercase letter, number, and symbol.',
      ],
      ['url', 'ftp://acme.test', 'Please provide a valid URL.'],
      ['zip', '1234', 'Please provide a 5-digit zip code.'],
    ];
    for (const [rule, bad, message] of cases) expect(check(bad, { rule }), rule).toBe(message);
    const good: [TextSpec['rule'], string][] = [
      ['date', '2024-02-29'],
      ['domain', 'acme.test'],
      ['email', ' ada@acme.test '],
      ['integer', '42'],
      ['number', '4.2'],
      ['password', 'Abcdef1!'],
      ['url', 'https://acme.test/x'],
      ['zip', '02139'],
      ['state', 'MA'],
    ];
    for (const [rule, value] of good) expect(check(value, { rule }), rule).toBeUndefined();
  });

  it('asks a required state selector with "Please select a state."', () => {
    expect(check('', { rule: 'state' })).toBe('Please select a state.');
  });

  it('names the limit of a value that is too long, before the rule', () => {
    expect(check('x'.repeat(101), { maxLength: 100 })).toBe('Please provide a name of at most 100 characters.');
    expect(check(`${'a'.repeat(95)}@acme.test`, { what: 'an email address', rule: 'email' })).toBe(
      'Please provide an email address of at most 100 characters.',
    );
    expect(check('x'.repeat(100), { maxLength: 100 })).toBeUndefined();
  });

  it('checks trimmed text, but passwords as typed', () => {
    expect(check(' 02139 ', { rule: 'zip' })).toBeUndefined();
    expect(check(' Abcdef1! ', { rule: 'password', keepSpaces: true })).toBeUndefined();
    const same = (value: string, values: Record<string, string>) => (value === values.a ? undefined : 'differs');
    expect(check(' x', { keepSpaces: true, check: same }, { a: 'x' })).toBe('differs');
    expect(check(' x', { check: same }, { a: 'x' })).toBeUndefined();
  });

  it('runs a field’s own check after the rule passes', () => {
    const own = () => 'Taken.';
    expect(check('ada@', { rule: 'email', check: own })).toBe('Please provide a valid email address.');
    expect(check('ada@acme.test', { rule: 'email', check: own })).toBe('Taken.');
  });

  it('derives what a field asks for from its label', () => {
    expect(whatFromLabel('Name')).toBe('a name');
    expect(whatFromLabel('Organization')).toBe('an organization');
  });
});
