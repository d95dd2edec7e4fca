/**
 * API keys (issue 5): the shapes of a key and its credentials, and what the API says when one is refused. A key is
 * a 16-character id and a 32-character secret; the secret is shown once, when the key is made or rotated.
 */
export const KEY_ID_LENGTH = 16;
export const KEY_SECRET_LENGTH = 32;
/** Letters and digits: a key survives copy and paste, shells and URLs unescaped. */
export const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export const KEY_LIMITS = {
  /** A signed token's time may differ from the server's by this much either way. */
  signedSkewMs: 5 * 60_000,
  /** Original-API clients reuse one token for 30 minutes: accepted while its time is at most this old... */
  legacyMaxAgeMs: 35 * 60_000,
  /** ...and at most this far ahead. */
  legacyMaxAheadMs: 5 * 60_000,
  /** Longest rotation grace: the old secret stays valid at most this long after a rotation. */
  maxGraceSeconds: 7 * 24 * 3600,
  maxAllowlist: 100,
  /** Requests per minute a key may be limited to, at most. */
  maxRateLimit: 1_000_000,
  nameMax: 100,
} as const;

/**
 * A key is `live` (the identity graph, metered) or `test` (the sandbox: a fixed public synthetic graph, free). A test
 * key is always presented with this prefix before its id, in every form, so it is told apart at a glance (issue 31).
 */
export type KeyMode = 'live' | 'test';
export const KEY_MODES: readonly KeyMode[] = ['live', 'test'];
export const TEST_KEY_PREFIX = 'tk_test_';

/** The sandbox's own limit on a test key, requests a minute (the key's own limit applies when lower). */
export const TEST_KEY_RATE_LIMIT = 100;

/** The token a key is presented as: `{keyId}{secret}`, with the test prefix for a test key. */
export const presentedKey = (mode: KeyMode | undefined, keyId: string, secret: string) =>
  `${mode === 'test' ? TEST_KEY_PREFIX : ''}${keyId}${secret}`;

/** How a key may be presented. */
export type KeyForm = 'bearer' | 'signed' | 'legacy';

/** Spec-style messages for refused keys; none repeats the credential. */
export const KEY_MESSAGES = {
  malformed: 'The Authorization header must be "Bearer" followed by a key id and its secret or signature.',
  unknown: 'This API key is not valid.',
  expired: 'This API key has expired.',
  badSignature: 'The signature of this API key is not valid.',
  staleTime: 'The time in this signed API key is too far from the present; sign each request afresh.',
  legacyOff: 'This API key does not accept the legacy signed form; turn on legacy signing for it in the console.',
  ipRefused: (ip: string) => `This API key may not be used from ${ip}.`,
  inUrl: 'Send API keys in the Authorization header, never in a URL or a cookie.',
  userInactive: 'The user of this API key is no longer active.',
  userMoved: 'The user of this API key has moved to another organization; make a new key there.',
  cidr: (value: string) => `"${value}" is not an IPv4 or IPv6 address or CIDR range.`,
  recordType: (value: string) => `"${value}" is not a record type.`,
  recordTypeNotYours: (value: string) => `You may not receive ${value}, so a key of yours cannot either.`,
  expiresPast: 'Please provide an expiry in the future.',
  notFound: 'No such API key.',
  testPrefixMissing: `This is a test key: present it with its ${TEST_KEY_PREFIX} prefix, as the console shows it.`,
  notATestKey: `This API key is a live key: present it without the ${TEST_KEY_PREFIX} prefix.`,
  modeFixed: 'A key stays live or test for its whole life; make a new key instead.',
} as const;
