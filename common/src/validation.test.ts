import { describe, expect, it } from 'vitest';
import { formatBytes } from './constants';
import { errorMessage, errorTitle } from './errors';
import {
  addressSchema,
  domainSchema,
  emailSchema,
  integerSchema,
  numberSchema,
  passwordSchema,
  requiredText,
  urlSchema,
  zipSchema,
} from './schemas/fields';
import { isStrongPassword, MESSAGES, PASSWORD_CHECKS } from './validation';

const message = (
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
  v: string,
) => schema.safeParse(v).error?.issues[0]?.message;

describe('validation rules (spec §5)', () => {
  it('answers each rule with its message', () => {
    expect(message(emailSchema, 'nope')).toBe('Please provide a valid email address.');
    expect(message(domainSchema, 'bad_domain')).toBe('Please provide a valid domain name.');
    expect(message(integerSchema, '1.5')).toBe('Please provide an integer.');
    expect(message(numberSchema, '1.')).toBe('Please provide a valid number.');
    expect(message(urlSchema, 'ftp://x')).toBe('Please provide a valid URL.');
    expect(message(zipSchema, '1234')).toBe('Please provide a 5-digit zip code.');
    expect(message(passwordSchema, 'password')).toBe(MESSAGES.password);
    expect(message(requiredText('a name'), '   ')).toBe('Please provide a name.');
    expect(message(addressSchema, '')).toBe('Please provide a street address.');
  });

  it('accepts good values and enforces maximum lengths', () => {
    expect(emailSchema.safeParse('jane.doe@tessera.example').success).toBe(true);
    expect(emailSchema.safeParse(`${'a'.repeat(96)}@x.io`).success).toBe(false);
    expect(domainSchema.safeParse('sub.tessera-data.co').success).toBe(true);
    expect(integerSchema.safeParse('12345678901').success).toBe(false);
    expect(numberSchema.safeParse('12.75').success).toBe(true);
    expect(urlSchema.safeParse('https://tessera.example/x').success).toBe(true);
    expect(urlSchema.safeParse(`https://${'a'.repeat(200)}`).success).toBe(false);
  });

  it('needs all four character classes and 8 to 100 characters in a password', () => {
    expect(isStrongPassword('Aa1!aaaa')).toBe(true);
    expect(isStrongPassword('Aa1!aaa')).toBe(false);
    expect(isStrongPassword('aa1!aaaa')).toBe(false);
    expect(isStrongPassword('AA1!AAAA')).toBe(false);
    expect(isStrongPassword('Aa!aaaaa')).toBe(false);
    expect(isStrongPassword('Aa1aaaaa')).toBe(false);
    expect(isStrongPassword(`Aa1!${'a'.repeat(97)}`)).toBe(false);
    expect(PASSWORD_CHECKS.map((c) => c.label)).toEqual([
      '1 uppercase letter',
      '1 lowercase letter',
      '1 number',
      '1 symbol',
      '8 characters total',
    ]);
  });
});

describe('errors and numbers (spec §8, §9)', () => {
  it('titles and messages', () => {
    expect([400, 401, 402, 403, 404, 409, 451, 500, 418].map(errorTitle)).toEqual([
      'Bad Request',
      'Unauthorized',
      'Payment Error',
      'Forbidden',
      'Page Not Found',
      'Conflict Error',
      'Legal Notice',
      'Server Error',
      'Error',
    ]);
    expect(errorMessage(404)).toBe("We're sorry! The page you're looking for does not exist.");
    expect(errorMessage(403)).toBe("We're sorry! You do not have permission to access the page you requested.");
    expect(errorMessage(500)).toBe("We're sorry! An error has occurred. Please try again later.");
  });

  it('formats byte sizes in decimal units from B to YB', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1000)).toBe('1 kB');
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
    expect(formatBytes(1e24)).toBe('1 YB');
    expect(formatBytes(5e27)).toBe('5000 YB');
  });
});
