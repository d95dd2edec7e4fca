/**
 * The three ways of presenting an API key (docs/api-keys.md), made fresh for every attempt:
 *   plain   Bearer {keyId}{secret}
 *   signed  Bearer {keyId}{time}{hex HMAC-SHA256 of time keyed with secret}   time: epoch ms, decimal (WebCrypto)
 *   legacy  Bearer {keyId}{time}{hex MD5 of time + secret}                     time: epoch ms, decimal (md5.ts)
 */
import { md5Hex } from './md5.js';
import type { AuthMode } from './types.js';

/** A key id is 16 letters and digits (server/src/features/keys); the secret follows it. */
export const KEY_ID_LENGTH = 16;
/** What a test key (the sandbox's, free) starts with in every form; it stays with the key id. */
export const TEST_KEY_PREFIX = 'tk_test_';
const KEY = new RegExp(`^((?:${TEST_KEY_PREFIX})?[A-Za-z0-9]{${KEY_ID_LENGTH}})([A-Za-z0-9]+)$`);

/** The key id (a test key's with its prefix) and secret of a whole key; throws a TypeError for anything else. */
export function splitKey(apiKey: string): { keyId: string; secret: string } {
  const m = KEY.exec(apiKey);
  if (!m) {
    throw new TypeError(
      `An API key is its ${KEY_ID_LENGTH}-character id followed by its secret (letters and digits only, 48 in all, after ${TEST_KEY_PREFIX} for a test key).`,
    );
  }
  return { keyId: m[1]!, secret: m[2]! };
}

const hex = (buffer: ArrayBuffer) =>
  Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

/** Makes the Authorization header for each attempt, keeping the imported HMAC key. */
export class Authorizer {
  readonly mode: AuthMode;
  readonly keyId: string;
  private readonly apiKey: string;
  private readonly secret: string;
  private hmacKey: Promise<CryptoKey> | undefined;

  constructor(apiKey: string, mode: AuthMode = 'plain') {
    if (typeof apiKey !== 'string' || apiKey === '') throw new TypeError('An API key is needed (apiKey).');
    if (!['plain', 'signed', 'legacy'].includes(mode)) throw new TypeError(`Unknown auth mode ${String(mode)}.`);
    const { keyId, secret } = splitKey(apiKey.trim());
    this.mode = mode;
    this.apiKey = apiKey.trim();
    this.keyId = keyId;
    this.secret = secret;
  }

  /** The header value at time `now` (epoch milliseconds). */
  async header(now = Date.now()): Promise<string> {
    if (this.mode === 'plain') return `Bearer ${this.apiKey}`;
    const time = String(Math.floor(now));
    if (this.mode === 'legacy') return `Bearer ${this.keyId}${time}${md5Hex(time + this.secret)}`;
    const subtle = globalThis.crypto?.subtle;
    if (!subtle) {
      throw new TypeError('Signed keys need WebCrypto (crypto.subtle): Node 20+, or a browser page served over HTTPS.');
    }
    const encoder = new TextEncoder();
    this.hmacKey ??= subtle.importKey('raw', encoder.encode(this.secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const signature = await subtle.sign('HMAC', await this.hmacKey, encoder.encode(time));
    return `Bearer ${this.keyId}${time}${hex(signature)}`;
  }
}

/** The Authorization header for `apiKey` in `mode` at `now`: for curl, or another HTTP client. */
export function authorizationHeader(apiKey: string, mode: AuthMode = 'plain', now = Date.now()): Promise<string> {
  return new Authorizer(apiKey, mode).header(now);
}
