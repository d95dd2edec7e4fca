/** Zod schemas for the spec §5 field rules of validation.ts, for server request bodies. */
import { z } from 'zod';
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
} from '../validation';

export const emailSchema = z.string().trim().refine(isEmail, MESSAGES.email);
export const domainSchema = z.string().trim().refine(isDomain, MESSAGES.domain);
export const passwordSchema = z.string().refine(isStrongPassword, MESSAGES.password);
export const integerSchema = z.string().trim().refine(isInteger, MESSAGES.integer);
export const numberSchema = z.string().trim().refine(isNumber, MESSAGES.number);
export const urlSchema = z.string().trim().refine(isUrl, MESSAGES.url);
export const zipSchema = z.string().trim().refine(isZip, MESSAGES.zip);
export const dateSchema = z.string().refine(isDate, MESSAGES.date);

/** Required text: blank or whitespace fails with 'Please provide {what}.' */
export function requiredText(what: string, max?: number) {
  const base = z.string().trim().min(1, MESSAGES.required(what));
  return max === undefined ? base : base.max(max, MESSAGES.tooLong(what, max));
}

export const nameSchema = requiredText('a name', MAX_LENGTH.name);
export const addressSchema = requiredText('a street address', MAX_LENGTH.address);
export const citySchema = requiredText('a city', MAX_LENGTH.city);
