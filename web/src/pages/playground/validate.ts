/**
 * The playground's checks before a request is sent (auto-fetch runs only when they pass): spec §5 rules where one
 * applies (email, zip, state, integer, number), the lookup key rules of common/lookup-inputs.ts otherwise, and
 * what the endpoint needs (a PII lookup: both names and a place), in the API's own words.
 */
import { KEY_NORMALIZERS, LOOKUP_MESSAGES, type LookupKey } from '@tessera/common/lookup-inputs';
import { type InputName, LOOKUP_LIMITS, PII_INPUTS, PII_MESSAGES, piiHasPlace } from '@tessera/common/lookups';
import { findState } from '@tessera/common/states';
import { isInteger, isNumber, isZip, MAX_LENGTH, MESSAGES } from '@tessera/common/validation';
import { inputsOf, type PlaygroundState } from './playground-state';

const PII = new Set<string>(PII_INPUTS);
const TEXT_MAX: Partial<Record<InputName, number>> = {
  firstName: Math.min(MAX_LENGTH.name, LOOKUP_LIMITS.maxPiiLength),
  lastName: Math.min(MAX_LENGTH.name, LOOKUP_LIMITS.maxPiiLength),
  address: Math.min(MAX_LENGTH.address, LOOKUP_LIMITS.maxPiiLength),
  city: Math.min(MAX_LENGTH.city, LOOKUP_LIMITS.maxPiiLength),
};

/** The message for one input's value, or null when it is fine (an empty value is checked by `requestProblem`). */
export function inputError(name: InputName, raw: string): string | null {
  const value = raw.trim();
  if (value === '') return null;
  if (name === 'zip') return isZip(value) ? null : MESSAGES.zip;
  if (name === 'state') return findState(value) ? null : MESSAGES.state;
  // Spec §5's integer message; identity ids run past its 10 digits (the OpenAPI example has 13), so the API's bound.
  if (name === 'id') return KEY_NORMALIZERS.id(value) === null ? MESSAGES.integer : null;
  if (name === 'email') return KEY_NORMALIZERS.email(value) ? null : MESSAGES.email;
  if (name in KEY_NORMALIZERS) {
    return KEY_NORMALIZERS[name as LookupKey](value) === null ? LOOKUP_MESSAGES[name as LookupKey] : null;
  }
  const max = TEXT_MAX[name];
  return max !== undefined && value.length > max ? PII_MESSAGES.tooLong : null;
}

/** The message for an option's value, or null when it is fine or empty. */
export function optionError(name: 'minScore' | 'limit', raw: string): string | null {
  const value = raw.trim();
  if (value === '') return null;
  if (name === 'limit') {
    return isInteger(value) && Number(value) >= 1 && Number(value) <= LOOKUP_LIMITS.maxLimit ? null : MESSAGES.integer;
  }
  return isNumber(value) && Number(value) <= 100 ? null : MESSAGES.number;
}

/** Why a GET cannot be sent as it stands (a field error or a missing input), or null when it can. */
export function getProblem(state: PlaygroundState): string | null {
  const names = inputsOf(state.endpoint);
  const given = Object.fromEntries(names.map((n) => [n, state.inputs[n]?.trim() ?? '']));
  for (const name of names) {
    const error = inputError(name, given[name]!);
    if (error) return `${name}: ${error}`;
  }
  const any = names.some((n) => given[n] !== '');
  if (!any) return PII_MESSAGES.noInputs(state.endpoint, names);
  if (state.endpoint === 'byPii') {
    if (!given.firstName || !given.lastName) return PII_MESSAGES.names;
    if (!piiHasPlace(given)) return PII_MESSAGES.place;
  }
  if (state.endpoint === 'byAny' && names.every((n) => !given[n] || PII.has(n))) {
    // Only name and place given: byAny searches them only when complete.
    if (!given.firstName || !given.lastName) return PII_MESSAGES.names;
    if (!piiHasPlace(given)) return PII_MESSAGES.place;
  }
  return null;
}

/** Why the options cannot be sent, or null. */
export function optionsProblem(state: PlaygroundState): string | null {
  for (const name of ['minScore', 'limit'] as const) {
    const error = optionError(name, state[name]);
    if (error) return `${name}: ${error}`;
  }
  return null;
}
