/** Zod schemas for the spec §5 field rules of validation.ts, for server request bodies. */
import { z } from 'zod';
import {
  canonicalEmail,
  isDate,
  isDomain,
  isEmail,
  isInteger,
  isNumber,
  isStorableText,
  isStrongPassword,
  isUrl,
  isZip,
  MAX_LENGTH,
  MESSAGES,
} from '../validation';

/**
 * Every text field of a request is built on this: text PostgreSQL can store (no NUL, no unpaired surrogate), or a
 * 400 naming the field. It stops the field's other checks, so the field gets this one message. `params` are
 * z.string()'s own (a field's message for a value that is not text at all, say).
 */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isStorableText, { message: MESSAGES.text, abort: true });

/** An address in its canonical form (NFKC, trimmed; decision 0020), or the spec message. */
export const emailSchema = text().overwrite(canonicalEmail).refine(isEmail, MESSAGES.email);
export const domainSchema = text().trim().refine(isDomain, MESSAGES.domain);
export const passwordSchema = text().refine(isStrongPassword, MESSAGES.password);
export const integerSchema = text().trim().refine(isInteger, MESSAGES.integer);
export const numberSchema = text().trim().refine(isNumber, MESSAGES.number);
export const urlSchema = text().trim().refine(isUrl, MESSAGES.url);
export const zipSchema = text().trim().refine(isZip, MESSAGES.zip);
export const dateSchema = text().refine(isDate, MESSAGES.date);

/** Optional text up to `max` characters, trimmed; `what` names it in the too-long message. */
export function optionalText(what: string, max: number) {
  return text().trim().max(max, MESSAGES.tooLong(what, max));
}

/** Required text: blank or whitespace fails with 'Please provide {what}.' */
export function requiredText(what: string, max?: number) {
  const base = text()
    .trim()
    .min(1, { message: MESSAGES.required(what), abort: true });
  return max === undefined ? base : base.max(max, MESSAGES.tooLong(what, max));
}

export const nameSchema = requiredText('a name', MAX_LENGTH.name);
export const addressSchema = requiredText('a street address', MAX_LENGTH.address);
export const citySchema = requiredText('a city', MAX_LENGTH.city);
