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
  text,
  urlSchema,
  zipSchema,
} from './schemas/fields';
import {
  canonicalEmail,
  emailKey,
  isEmail,
  isStorableText,
  isStrongPassword,
  MESSAGES,
  PASSWORD_CHECKS,
} from './validation';

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

describe('text a database can store (issue 12)', () => {
  it('refuses NUL and unpaired surrogates, and nothing else', () => {
    expect(isStorableText('plain, ünïcödé, emoji 😀, tab\tand CR\r')).toBe(true);
    for (const bad of ['a\u0000b', 'a\ud800b', 'a\udc00', '\ud83d']) expect(isStorableText(bad), bad).toBe(false);
  });

  it('is the first check of every text schema, which then says nothing else', () => {
    for (const schema of [text(), emailSchema, domainSchema, passwordSchema, requiredText('a name', 100)]) {
      expect(schema.safeParse('x\u0000').error?.issues.map((i) => i.message)).toEqual([MESSAGES.text]);
      expect(schema.safeParse('\ud800').error?.issues.map((i) => i.message)).toEqual([MESSAGES.text]);
    }
  });
});

describe('e-mail addresses: one canonical form and one key (decision 0020)', () => {
  it('canonical form: NFKC and trimmed, case kept; key: lower case', () => {
    expect(canonicalEmail(' Ｊａｎｅ＠Example.COM ')).toBe('Jane@Example.COM');
    expect(emailKey(' Ｊａｎｅ＠Example.COM ')).toBe('jane@example.com');
    expect(emailSchema.parse('  Ｊａｎｅ＠Example.COM')).toBe('Jane@Example.COM');
  });

  it('takes ASCII local parts only, so the key is what the database lower() makes of the stored address', () => {
    expect(isEmail("o'brien+tag@example.com")).toBe(true);
    expect(isEmail('\u212Aelvin@example.com')).toBe(true); // the Kelvin sign is K once canonical
    for (const bad of ['adm\u0130na@example.com', 'jos\u00e9@example.com', 'a\u0000@example.com', 'a b@example.com']) {
      expect(isEmail(bad), bad).toBe(false);
      expect(message(emailSchema, bad), bad).toBe(bad.includes('\u0000') ? MESSAGES.text : MESSAGES.email);
    }
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
