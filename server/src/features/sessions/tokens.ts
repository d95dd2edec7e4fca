import { createHash, randomBytes } from 'node:crypto';

/** A 256-bit random session token, as sent in the cookie. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
