/**
 * The spec §5 field rules as the form kit applies them. Predicates, messages and limits all come from
 * common/src/validation.ts; this file only says which go together and in what order they are checked.
 */
import {
  isDate,
  isDomain,
  isEmail,
  isInteger,
  isNumber,
  isStrongPassword,
  isUrl,
  isZip,
  MAX_LENGTH,
  MESSAGES,
} from '@tessera/common/validation';

export type FormValues = Record<string, string>;

/** A field's own check beyond its rule: the message for a failing value, undefined when it passes. */
export type FieldCheck = (value: string, values: FormValues) => string | undefined;

interface Rule {
  test: (value: string) => boolean;
  message: string;
  /** What 'Please provide {what}.' names when the field gives nothing better. */
  what: string;
  maxLength?: number;
  /** The message for a blank value, when it is not 'Please provide {what}.' */
  blank?: string;
}

export const RULES = {
  date: { test: isDate, message: MESSAGES.date, what: 'a date' },
  domain: { test: isDomain, message: MESSAGES.domain, what: 'a domain name', maxLength: MAX_LENGTH.domain },
  email: { test: isEmail, message: MESSAGES.email, what: 'an email address', maxLength: MAX_LENGTH.email },
  integer: { test: isInteger, message: MESSAGES.integer, what: 'an integer', maxLength: MAX_LENGTH.integer },
  number: { test: isNumber, message: MESSAGES.number, what: 'a number', maxLength: MAX_LENGTH.number },
  password: {
    test: isStrongPassword,
    message: MESSAGES.password,
    what: 'a password',
    maxLength: MAX_LENGTH.password,
  },
  state: { test: (v: string) => v !== '', message: MESSAGES.state, what: 'a state', blank: MESSAGES.state },
  url: { test: isUrl, message: MESSAGES.url, what: 'a URL', maxLength: MAX_LENGTH.url },
  zip: { test: isZip, message: MESSAGES.zip, what: 'a zip code', maxLength: MAX_LENGTH.zip },
} satisfies Record<string, Rule>;

export type RuleName = keyof typeof RULES;

export interface TextSpec {
  /** Names the value in 'Please provide {what}.', e.g. 'a name'. */
  what: string;
  /** An optional field may stay empty; an empty optional field skips every check. */
  optional?: boolean;
  rule?: RuleName;
  /** Defaults to the rule's limit. */
  maxLength?: number;
  /** Check the value as typed instead of trimmed (passwords). */
  keepSpaces?: boolean;
  check?: FieldCheck;
}

/** The longest value a field takes: its own limit, else its rule's. */
export function maxLengthOf(spec: Pick<TextSpec, 'rule' | 'maxLength'>): number | undefined {
  const rule: Rule | undefined = spec.rule ? RULES[spec.rule] : undefined;
  return spec.maxLength ?? rule?.maxLength;
}

/** The first message a text value fails with: blank, then too long, then the rule, then the field's check. */
export function checkText(value: string, spec: TextSpec, values: FormValues = {}): string | undefined {
  const rule: Rule | undefined = spec.rule ? RULES[spec.rule] : undefined;
  if (value.trim() === '') return spec.optional ? undefined : (rule?.blank ?? MESSAGES.required(spec.what));
  const text = spec.keepSpaces ? value : value.trim();
  const max = maxLengthOf(spec);
  if (max !== undefined && text.length > max) return MESSAGES.tooLong(spec.what, max);
  if (rule && !rule.test(text)) return rule.message;
  return spec.check?.(text, values);
}

/** 'a name' from 'Name', 'an organization' from 'Organization': the default `what` of a labelled field. */
export function whatFromLabel(label: string): string {
  const noun = label.toLowerCase();
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}
