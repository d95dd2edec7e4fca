/**
 * Lookup inputs as callers send them (a GET's query, each of a POST's `inputs`, each row of a PUT's CSV) made
 * into normalized keys and a PII query, or field errors naming what is wrong. Normalized the one way the graph
 * stores each key (common/lookup-inputs.ts), so a well-formed input either matches or finds nothing.
 */
import type { FieldError } from '@tessera/common/errors';
import { KEY_NORMALIZERS, LOOKUP_MESSAGES, type LookupKey } from '@tessera/common/lookup-inputs';
import {
  type InputName,
  LOOKUP_ENDPOINTS,
  LOOKUP_LIMITS,
  type LookupEndpoint,
  METADATA_LIMITS,
  METADATA_MESSAGES,
  PII_INPUTS,
  PII_MESSAGES,
  type PiiInputName,
  piiPlaceProblem,
  plainKeyOf,
} from '@tessera/common/lookups';
import { US_STATES } from '@tessera/common/states';
import { isStorableText, MESSAGES } from '@tessera/common/validation';
import { z } from 'zod';
import type { PiiFields } from '../scoring/comparisons';

/** The name under which a POST input carries the caller's own object, echoed in its result. */
export const METADATA = 'metadata';

/** A metadata value: one level deep. */
const metadataValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * A POST input's `metadata`: a flat object (values text, numbers, true, false or null) of at most 1 KB as JSON,
 * echoed unchanged in the input's result (in CSV, one `metadata.<key>` column per key). Exported for the API
 * reference.
 */
export const metadataSchema = z
  .record(z.string(), metadataValue)
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= METADATA_LIMITS.maxBytes, {
    error: METADATA_MESSAGES.tooLarge,
  })
  .describe(
    `Your own object, echoed unchanged in this input's result: one level deep (text, numbers, true, false or null), at most ${METADATA_LIMITS.maxBytes} bytes as JSON.`,
  );
export type Metadata = z.infer<typeof metadataSchema>;

/** The metadata, or the field error naming what is wrong with it (`at` makes a field's path). */
export function parseMetadata(
  raw: unknown,
  at: (name: string) => string,
): { metadata: Metadata; error?: undefined } | { error: FieldError } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { error: { path: at(METADATA), message: METADATA_MESSAGES.object } };
  }
  for (const [key, value] of Object.entries(raw)) {
    if (!metadataValue.safeParse(value).success) {
      return { error: { path: `${at(METADATA)}.${key}`, message: METADATA_MESSAGES.value(key) } };
    }
  }
  const parsed = metadataSchema.safeParse(raw);
  if (!parsed.success) return { error: { path: at(METADATA), message: METADATA_MESSAGES.tooLarge } };
  return { metadata: parsed.data };
}

export interface ExactKey {
  kind: LookupKey;
  /** Normalized; an identity id as its decimal digits. */
  value: string;
}

export interface LookupInput {
  /** What the caller sent, echoed back in POST results. */
  raw: string | Record<string, string>;
  keys: ExactKey[];
  /** Present when the input names a person well enough to search for them. */
  pii: PiiFields | null;
  /** The caller's own object (POST only), echoed in the result as it came. */
  metadata?: Metadata;
}

export type Parsed = { input: LookupInput; errors?: undefined } | { input?: undefined; errors: FieldError[] };

const STATES = new Set(US_STATES.map((s) => s.abbreviation));
const isPiiName = (name: string): name is PiiInputName => (PII_INPUTS as readonly string[]).includes(name);

function piiValue(name: PiiInputName, raw: string): { value: string } | { message: string } {
  const value = raw.trim().replace(/\s+/g, ' ');
  if (value.length > LOOKUP_LIMITS.maxPiiLength) return { message: PII_MESSAGES.tooLong };
  if (name === 'state') {
    const state = value.toUpperCase();
    return STATES.has(state) ? { value: state } : { message: PII_MESSAGES.state };
  }
  if (name === 'zip') {
    const zip = /^(\d{5})(-?\d{4})?$/.exec(value);
    return zip ? { value: zip[1]! } : { message: PII_MESSAGES.zip };
  }
  return { value };
}

/** The PII query of the given fields, or the rule it breaks. */
function piiQuery(fields: Partial<Record<PiiInputName, string>>): PiiFields | { message: string; field: string } {
  const q = { firstName: '', lastName: '', address: '', city: '', state: '', zip: '', ...fields };
  if (!q.firstName || !q.lastName)
    return { message: PII_MESSAGES.names, field: q.firstName ? 'lastName' : 'firstName' };
  const lacking = piiPlaceProblem(q);
  if (lacking === 'place') return { message: PII_MESSAGES.place, field: 'zip' };
  if (lacking === 'houseNumber') return { message: PII_MESSAGES.houseNumber, field: 'address' };
  return q;
}

/**
 * One input of `endpoint`: a plain string (the endpoint's key, for single-key endpoints) or an object of named
 * inputs, with `metadata` beside them when `withMetadata` (a POST's inputs). `path` prefixes field errors (e.g.
 * `body.inputs.3`).
 */
export function parseInput(endpoint: LookupEndpoint, raw: unknown, path: string, withMetadata = false): Parsed {
  const plain = plainKeyOf(endpoint);
  let named: Record<string, unknown>;
  if (typeof raw === 'string' || typeof raw === 'number') {
    if (!plain) {
      return {
        errors: [
          { path, message: `${endpoint} takes an object of named inputs (${LOOKUP_ENDPOINTS[endpoint].join(', ')}).` },
        ],
      };
    }
    named = { [plain]: raw };
  } else if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    named = raw as Record<string, unknown>;
  } else {
    return { errors: [{ path, message: 'Each input is a string or an object of named inputs.' }] };
  }

  const allowed = LOOKUP_ENDPOINTS[endpoint] as readonly InputName[];
  const errors: FieldError[] = [];
  const keys: ExactKey[] = [];
  const pii: Partial<Record<PiiInputName, string>> = {};
  const echo: Record<string, string> = {};
  const at = (name: string) => (path ? `${path}.${name}` : name);
  let metadata: Metadata | undefined;
  for (const [name, value] of Object.entries(named)) {
    if (withMetadata && name === METADATA) {
      const checked = parseMetadata(value, at);
      if (checked.error) errors.push(checked.error);
      else metadata = checked.metadata;
      continue;
    }
    if (!(allowed as readonly string[]).includes(name)) {
      errors.push({ path: at(name), message: PII_MESSAGES.unknownInput(name, endpoint) });
      continue;
    }
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number') {
      errors.push({ path: at(name), message: 'Please provide text.' });
      continue;
    }
    const text = String(value);
    // Before anything reads it: NUL or a broken surrogate would fail the search in the database, not here.
    if (!isStorableText(text)) {
      errors.push({ path: at(name), message: MESSAGES.text });
      continue;
    }
    if (text.trim() === '') continue;
    echo[name] = text;
    if (isPiiName(name)) {
      const checked = piiValue(name, text);
      if ('message' in checked) errors.push({ path: at(name), message: checked.message });
      else if (checked.value) pii[name] = checked.value;
      continue;
    }
    const kind = name as LookupKey;
    const normalized = KEY_NORMALIZERS[kind](text);
    if (normalized === null) errors.push({ path: at(name), message: LOOKUP_MESSAGES[kind] });
    else keys.push({ kind, value: String(normalized) });
  }
  if (errors.length > 0) return { errors };

  const anyPii = Object.keys(pii).length > 0;
  let query: PiiFields | null = null;
  if (anyPii) {
    const checked = piiQuery(pii);
    // byAny with an exact key searches by name too only when the name is complete enough to search for.
    if ('message' in checked) {
      if (keys.length === 0) return { errors: [{ path: at(checked.field), message: checked.message }] };
    } else query = checked;
  }
  if (keys.length === 0 && !query) {
    const field = plain ?? (endpoint === 'byPii' ? 'firstName' : null);
    return {
      errors: [{ path: field ? at(field) : path || 'input', message: PII_MESSAGES.noInputs(endpoint, allowed) }],
    };
  }
  const input: LookupInput = { raw: typeof raw === 'string' ? raw : echo, keys, pii: query };
  if (metadata) input.metadata = metadata;
  return { input };
}

/** Every input of a POST parsed (each may carry metadata), or all their errors at once (up to `maxErrors`). */
export function parseInputs(
  endpoint: LookupEndpoint,
  raws: readonly unknown[],
  pathOf: (index: number) => string,
  maxErrors = 20,
): { inputs: LookupInput[]; errors: FieldError[] } {
  const inputs: LookupInput[] = [];
  const errors: FieldError[] = [];
  raws.forEach((raw, i) => {
    const parsed = parseInput(endpoint, raw, pathOf(i), true);
    if (parsed.errors) errors.push(...parsed.errors.slice(0, Math.max(0, maxErrors - errors.length)));
    else inputs.push(parsed.input);
  });
  return { inputs, errors };
}
