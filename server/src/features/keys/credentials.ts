/**
 * The three ways an API key is presented in `Authorization: Bearer ...` (issue 5):
 *   plain   {keyId}{secret}                       16 + 32 characters
 *   signed  {keyId}{time}{hmacSha256(secret, time)}  time in epoch milliseconds, decimal; signature 64 hex digits
 *   legacy  {keyId}{time}{md5(time + secret)}      the original API's form: time in base 10, 32 or 36; 32 hex digits
 * A test key's token starts with `tk_test_` in each form (issue 31).
 * Which one is told by the token's shape alone; whether it is right needs the key (verify.ts).
 */
import { createHash, createHmac } from 'node:crypto';
import { KEY_ID_LENGTH, KEY_LIMITS, KEY_SECRET_LENGTH, TEST_KEY_PREFIX } from '@tessera/common/keys';

/** `test`: the token began with the test prefix (a test key's; issue 31). Whether it fits the key is verify.ts's. */
export type Credential = (
  | { form: 'bearer'; keyId: string; secret: string }
  | { form: 'signed'; keyId: string; time: string; signature: string }
  | { form: 'legacy'; keyId: string; time: string; signature: string }
) & { test: boolean };

const ID = `[A-Za-z0-9]{${KEY_ID_LENGTH}}`;
const BEARER = new RegExp(`^(${ID})([A-Za-z0-9]{${KEY_SECRET_LENGTH}})$`);
const SIGNED = new RegExp(`^(${ID})(\\d{1,15})([0-9a-fA-F]{64})$`);
const LEGACY = new RegExp(`^(${ID})([0-9A-Za-z]{1,16})([0-9a-fA-F]{32})$`);

/** The credential in an Authorization header value, or null when it is not one of ours. */
export function parseAuthorization(header: string): Credential | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) return null;
  const test = match[1]!.startsWith(TEST_KEY_PREFIX);
  const token = test ? match[1]!.slice(TEST_KEY_PREFIX.length) : match[1]!;
  let m = BEARER.exec(token);
  if (m) return { form: 'bearer', keyId: m[1]!, secret: m[2]!, test };
  m = SIGNED.exec(token);
  if (m) return { form: 'signed', keyId: m[1]!, time: m[2]!, signature: m[3]!.toLowerCase(), test };
  m = LEGACY.exec(token);
  if (m) return { form: 'legacy', keyId: m[1]!, time: m[2]!, signature: m[3]!.toLowerCase(), test };
  return null;
}

export const signature = (secret: string, time: string) => createHmac('sha256', secret).update(time).digest('hex');
export const legacySignature = (secret: string, time: string) =>
  createHash('md5')
    .update(time + secret)
    .digest('hex');

/** A signed token's time is within five minutes of now either way. */
export function signedTimeFits(time: string, now: number): boolean {
  const at = Number(time);
  return Math.abs(at - now) <= KEY_LIMITS.signedSkewMs;
}

/**
 * A legacy token's time, read in every base its published clients use (decimal, base 32, base 36), fits when any
 * reading is at most 35 minutes old and at most 5 minutes ahead. Two readings of one text differ by orders of
 * magnitude, so at most one can land in a 40-minute window.
 */
export function legacyTimeFits(time: string, now: number): boolean {
  for (const base of [10, 32, 36]) {
    const digits = base === 10 ? /^\d+$/ : base === 32 ? /^[0-9a-v]+$/i : /^[0-9a-z]+$/i;
    if (!digits.test(time)) continue;
    const at = Number.parseInt(time, base);
    if (at >= now - KEY_LIMITS.legacyMaxAgeMs && at <= now + KEY_LIMITS.legacyMaxAheadMs) return true;
  }
  return false;
}
