/** Spec §5 validation rules: one definition, used by server schemas and client forms alike. */
import { formatBytes, PASSWORD_MAX, PASSWORD_MIN, ZIP_LENGTH } from './constants';

export const MESSAGES = {
  date: 'Please provide a valid date.',
  domain: 'Please provide a valid domain name.',
  email: 'Please provide a valid email address.',
  integer: 'Please provide an integer.',
  number: 'Please provide a valid number.',
  password:
    'Please provide a password that is at least 8 characters long and contains at least one uppercase letter, lowercase letter, number, and symbol.',
  passwordConfirmation: 'Passwords do not match',
  state: 'Please select a state.',
  url: 'Please provide a valid URL.',
  zip: 'Please provide a 5-digit zip code.',
  required: (what: string) => `Please provide ${what}.`,
  /** Beyond a field's maximum length (spec §5 gives the limits, not this text). */
  tooLong: (what: string, max: number) => `Please provide ${what} of at most ${max} characters.`,
  /** Uploaded pictures (IMAGE_TYPES and IMAGE_MAX_BYTES in resources.ts), checked by the console and the server. */
  imageType: 'The picture must be a PNG, JPEG, GIF or WebP image.',
  imageTooLarge: (maxBytes: number) => `The picture is larger than ${formatBytes(maxBytes)}.`,
  /** Text PostgreSQL cannot store (isStorableText); not a spec §5 rule, so not a spec text. */
  text: 'Please provide text without NUL characters or broken Unicode (unpaired surrogates).',
} as const;

export const MAX_LENGTH = {
  domain: 100,
  email: 100,
  integer: 10,
  number: 10,
  password: PASSWORD_MAX,
  url: 200,
  zip: ZIP_LENGTH,
  address: 200,
  city: 50,
  name: 100,
  /** A user's job title: not in spec §5, held to the name's limit. */
  title: 100,
} as const;

const DOMAIN = /^(?=.{1,100}$)([a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i;
const DOMAIN_PART = '([a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\\.)+[a-zA-Z]{2,}';
/** An account's address: a local part of visible ASCII characters but @ (RFC 5321 without SMTPUTF8; decision 0020). */
const EMAIL = new RegExp(`^[!-?A-~]+@${DOMAIN_PART}$`);
/** An address as people's records may hold it: any local part without spaces or @ (the lookup inputs). */
const ANY_EMAIL = new RegExp(`^[^\\s@]+@${DOMAIN_PART}$`);
const INTEGER = /^\d+$/;
const NUMBER = /^\d+(\.\d+)?$/;
const URL_RULE = /^https?:\/\/\S+$/i;
const ZIP = /^\d{5}$/;

/** The four character classes of the password checklist (spec §5), in display order. */
export const PASSWORD_CHECKS = [
  { label: '1 uppercase letter', test: (s: string) => /[A-Z]/.test(s) },
  { label: '1 lowercase letter', test: (s: string) => /[a-z]/.test(s) },
  { label: '1 number', test: (s: string) => /\d/.test(s) },
  { label: '1 symbol', test: (s: string) => /[^A-Za-z0-9\s]/.test(s) },
  { label: `${PASSWORD_MIN} characters total`, test: (s: string) => s.length >= PASSWORD_MIN },
] as const;

export function isStrongPassword(value: string): boolean {
  return value.length <= PASSWORD_MAX && PASSWORD_CHECKS.every((c) => c.test(value));
}

/** A UTF-16 surrogate without its pair (in a `u` pattern a pair is one code point): UTF-8 cannot encode it. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/**
 * Text a database column can hold as given: no NUL (PostgreSQL text cannot hold it) and no unpaired surrogate.
 * Every text field of a request is checked with this first.
 */
export const isStorableText = (v: string) => !v.includes('\u0000') && !UNPAIRED_SURROGATE.test(v);

/**
 * The one form of an e-mail address, stored and mailed as such: NFKC (full-width and other compatibility letters
 * become their plain forms) and trimmed. Decision 0020.
 */
export const canonicalEmail = (v: string) => v.normalize('NFKC').trim();

/**
 * What makes two addresses the same account, for look-ups, uniqueness and throttling alike: the canonical form in
 * lower case. Valid addresses are ASCII (isEmail), where this is exactly what the database's lower() gives.
 */
export const emailKey = (v: string) => canonicalEmail(v).toLowerCase();

/** An account's address in its canonical form (spec §5 'email'), at most 100 characters. */
export const isEmail = (v: string) => {
  const email = canonicalEmail(v);
  return email.length <= MAX_LENGTH.email && EMAIL.test(email);
};
/** Any well-formed address, non-ASCII local parts included (the identity graph's), at most 100 characters. */
export const isAnyEmail = (v: string) => v.length <= MAX_LENGTH.email && isStorableText(v) && ANY_EMAIL.test(v);
export const isDomain = (v: string) => DOMAIN.test(v);
export const isInteger = (v: string) => v.length <= MAX_LENGTH.integer && INTEGER.test(v);
export const isNumber = (v: string) => v.length <= MAX_LENGTH.number && NUMBER.test(v);
export const isUrl = (v: string) => v.length <= MAX_LENGTH.url && URL_RULE.test(v);
export const isZip = (v: string) => ZIP.test(v);
export const isDate = (v: string) => v.trim() !== '' && !Number.isNaN(Date.parse(v));
