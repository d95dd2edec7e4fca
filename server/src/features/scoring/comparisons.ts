/**
 * Field comparisons of the match model: each field of a PII query against a candidate falls into one agreement
 * level. Names know nicknames and typos (Jaro-Winkler), streets are compared in USPS form (suffixes and
 * directionals abbreviated, the unit set apart), zips by all five digits or the first three.
 */
import { sameGivenName } from '../people/nicknames';
import { normalizeAddress } from '../people/streets';
import { jaroWinkler } from './jaro-winkler';

export const FIELDS = ['firstName', 'lastName', 'street', 'city', 'state', 'zip'] as const;
export type Field = (typeof FIELDS)[number];

/** Agreement levels, strongest first; 'missing' when either side has no value (it then weighs nothing). */
export const LEVELS = ['exact', 'alias', 'close', 'different', 'missing'] as const;
export type Level = (typeof LEVELS)[number];

export interface PiiFields {
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}

/** Jaro-Winkler at or above this counts as a typo of the same value. */
export const CLOSE = 0.9;

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

function text(a: string, b: string, alias?: (a: string, b: string) => boolean): Level {
  const x = fold(a);
  const y = fold(b);
  if (!x || !y) return 'missing';
  if (x === y) return 'exact';
  if (alias?.(x, y)) return 'alias';
  return jaroWinkler(x, y) >= CLOSE ? 'close' : 'different';
}

function street(a: string, b: string): Level {
  if (!a.trim() || !b.trim()) return 'missing';
  const x = normalizeAddress(a);
  const y = normalizeAddress(b);
  if (x.street === y.street) return x.unit === y.unit || !x.unit || !y.unit ? 'exact' : 'alias';
  return jaroWinkler(x.street, y.street) >= CLOSE ? 'close' : 'different';
}

function zip(a: string, b: string): Level {
  const x = a.trim().slice(0, 5);
  const y = b.trim().slice(0, 5);
  if (!x || !y) return 'missing';
  if (x === y) return 'exact';
  return x.slice(0, 3) === y.slice(0, 3) ? 'close' : 'different';
}

/** The level of every field of `query` against `candidate`. */
export function compare(query: PiiFields, candidate: PiiFields): Record<Field, Level> {
  return {
    firstName: text(query.firstName, candidate.firstName, sameGivenName),
    lastName: text(query.lastName, candidate.lastName),
    street: street(query.address, candidate.address),
    city: text(query.city, candidate.city),
    state: text(query.state, candidate.state),
    zip: zip(query.zip, candidate.zip),
  };
}
