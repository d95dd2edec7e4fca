/**
 * The ten lookup endpoints of the identity API (issue 4): which inputs each takes, the options every one of them
 * accepts, and their limits. The server validates with these; the playground and the API reference read them.
 */
import type { LookupKey } from './lookup-inputs';

/** Name, address and place inputs of a PII lookup. */
export const PII_INPUTS = ['firstName', 'lastName', 'address', 'city', 'state', 'zip'] as const;
export type PiiInputName = (typeof PII_INPUTS)[number];

export type InputName = LookupKey | PiiInputName;

export const LOOKUP_ENDPOINTS = {
  byAny: ['email', 'md5', 'sha256', 'phone', 'ip', 'device', 'vin', 'id', ...PII_INPUTS],
  byDevice: ['device'],
  byEmail: ['email'],
  byId: ['id'],
  byIp: ['ip'],
  byMd5: ['md5'],
  byPhone: ['phone'],
  byPii: [...PII_INPUTS],
  bySha256: ['sha256'],
  byVehicle: ['vin'],
} as const satisfies Record<string, readonly InputName[]>;
export type LookupEndpoint = keyof typeof LOOKUP_ENDPOINTS;
export const LOOKUP_ENDPOINT_NAMES = Object.keys(LOOKUP_ENDPOINTS) as LookupEndpoint[];

/** The one key of a single-key endpoint, which a POST input may give as a plain string. */
export function plainKeyOf(endpoint: LookupEndpoint): LookupKey | null {
  const inputs = LOOKUP_ENDPOINTS[endpoint] as readonly InputName[];
  return inputs.length === 1 ? (inputs[0] as LookupKey) : null;
}

export const LOOKUP_LIMITS = {
  /** Inputs in one POST. */
  maxInputs: 1000,
  /** Identities returned per input, by default and at most. */
  defaultLimit: 10,
  maxLimit: 100,
  /** Characters of a name, address or city input. */
  maxPiiLength: 100,
  /** PII candidates scored per input (the best by match weight are returned). */
  piiCandidates: 200,
  /** A PII candidate is a match at this score unless minScore says otherwise: the model finds it more likely than not. */
  piiMinScore: 50,
} as const;

/**
 * Streamed PUT lookups (issue 28, finding 14): how many may run at once for one API key (or console user) and for one
 * organization, across every server process, and how long a stream may sit with nothing read or sent before it is
 * ended.
 */
export const STREAM_LIMITS = {
  perKey: 4,
  perOrganization: 16,
  idleSeconds: 60,
  /** A stream's claim lasts this long unless renewed by its progress: a crashed process's claims lapse by themselves. */
  leaseSeconds: 120,
} as const;

export const STREAM_LIMIT_MESSAGES = {
  key: (n: number) =>
    `This API key already has ${n} streamed lookups running, the most at once; please wait for one to finish.`,
  organization: (n: number) =>
    `Your organization already has ${n} streamed lookups running, the most at once; please wait for one to finish.`,
} as const;

export const PII_MESSAGES = {
  names: 'A PII lookup needs firstName and lastName.',
  place:
    'A PII lookup needs a street address (searched nationwide), a zip, or a state (with or without a city) to search in.',
  houseNumber:
    'Without a zip or state a PII lookup is searched nationwide by its street address: please start the address with its house number.',
  zip: 'Please provide a 5-digit zip code (or zip+4 as 12345-6789).',
  state: 'Please provide a two-letter state abbreviation.',
  tooLong: `Please use at most ${LOOKUP_LIMITS.maxPiiLength} characters.`,
  noInputs: (endpoint: string, inputs: readonly string[]) =>
    `${endpoint} needs at least one of its inputs: ${inputs.join(', ')}.`,
  unknownInput: (name: string, endpoint: string) => `${name} is not an input of ${endpoint}.`,
} as const;

type PiiPlace = { address?: string; city?: string; state?: string; zip?: string };

/**
 * What a PII query lacks to say where to search, or null: a zip, a state (a city alone is not enough: many states
 * share city names), or a street address, searched nationwide by its house number and street name (decision
 * 0027), so a nationwide address must start with its house number ('place', or 'houseNumber' naming the address).
 * Fields as normalized (trimmed; an empty string is absent).
 */
export function piiPlaceProblem(q: PiiPlace): 'place' | 'houseNumber' | null {
  if (q.zip || q.state) return null;
  if (!q.address) return 'place';
  return /^\d/.test(q.address) ? null : 'houseNumber';
}

export const piiHasPlace = (q: PiiPlace): boolean => piiPlaceProblem(q) === null;

/** Output formats: JSON by default, CSV by `format=csv` or an Accept header preferring text/csv. */
export const LOOKUP_FORMATS = ['json', 'csv'] as const;
export type LookupFormat = (typeof LOOKUP_FORMATS)[number];

/** Rate limits of the lookup API (issue 5): requests a minute, per key and per organization, in a sliding window. */
export const RATE_WINDOW_MS = 60_000;
export const RATE_MESSAGES = {
  key: (limit: number, seconds: number) =>
    `This API key is limited to ${limit.toLocaleString('en-US')} requests a minute; please retry in ${seconds} s.`,
  organization: (limit: number, seconds: number) =>
    `Your organization is limited to ${limit.toLocaleString('en-US')} requests a minute; please retry in ${seconds} s.`,
} as const;

/** Idempotency-Key on POST and PUT lookups (issue 5). */
export const IDEMPOTENCY = {
  header: 'idempotency-key',
  keepHours: 24,
  /** A first request still running after this long is taken to have died with its process. */
  runningMinutes: 60,
  /** Larger replies are served once but not kept for replay. */
  maxStoredBytes: 16 * 1024 * 1024,
  maxKeyLength: 255,
} as const;
export const IDEMPOTENCY_MESSAGES = {
  key: `Please send an Idempotency-Key of 1 to ${IDEMPOTENCY.maxKeyLength} visible ASCII characters.`,
  otherRequest: 'This Idempotency-Key was already used with a different request; use a new key for a new request.',
  running: 'A request with this Idempotency-Key is still running; retry when it has finished.',
  tooLarge:
    'The reply to the request with this Idempotency-Key was too large to keep (over 16 MB); it was served and charged once. Use a new key to ask again.',
} as const;

/** A request's identity (decision 0046): the X-Request-Id a client or a balancer sends, when well formed. */
export const REQUEST_ID = {
  header: 'x-request-id',
  maxLength: 128,
  pattern: /^[A-Za-z0-9._:+/=~-]{1,128}$/,
} as const;
export const REQUEST_ID_MESSAGES = {
  malformed: `X-Request-Id must be 1 to ${REQUEST_ID.maxLength} letters, digits or the characters . _ : - + / = ~ (one header).`,
  reused: (requestId: string) =>
    `The request id ${requestId} was already used for another request; send each request with an id of its own.`,
  expired: (requestId: string, minutes: number) =>
    `The request id ${requestId} was first used more than ${minutes} minutes ago: a retry must come within ${minutes} minutes; send a new request with an id of its own.`,
} as const;

/** What each input is, for the API reference (OpenAPI) and the playground. */
export const INPUT_DESCRIPTIONS: Record<InputName, string> = {
  email: 'An e-mail address; case and spaces are ignored.',
  md5: 'MD5 of a normalized e-mail address: 32 hex digits.',
  sha256: 'SHA-256 of a normalized e-mail address: 64 hex digits.',
  phone: 'A phone number with its area code, or in international form (+...).',
  ip: 'An IPv4 or IPv6 address.',
  device: 'An advertising id (IDFA or AAID), with or without hyphens.',
  vin: 'A 17-character vehicle identification number with a valid check digit.',
  id: 'A Tessera identity id.',
  firstName: 'First name (nicknames and typos are matched).',
  lastName: 'Last name.',
  address: 'Street address line, e.g. "1234 N Oak St Apt 4B".',
  city: 'City.',
  state: 'Two-letter state abbreviation.',
  zip: 'Five-digit ZIP code (ZIP+4 accepted).',
};

/**
 * A POST input's `metadata` (issue 14): the caller's own object, echoed unchanged in that input's result. Flat (its
 * values text, numbers, true, false or null) and at most `maxBytes` as JSON, so it stays an id or a few tags.
 */
export const METADATA_LIMITS = {
  maxBytes: 1024,
} as const;
export const METADATA_MESSAGES = {
  object: 'Please give metadata as an object, e.g. {"customerId": "c-123"}.',
  value: (key: string) =>
    `Please give metadata.${key} as text, a number, true, false or null: metadata is one level deep.`,
  tooLarge: `Please keep metadata to ${METADATA_LIMITS.maxBytes.toLocaleString('en-US')} bytes or less as JSON.`,
} as const;
