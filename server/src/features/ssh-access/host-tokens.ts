/** A host group's token: 256 random bits, shown once; only its SHA-256 and last four characters are kept. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'tsh_';

export const newHostToken = () => `${PREFIX}${randomBytes(32).toString('base64url')}`;

export const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

/** Constant-time comparison of a presented token with a stored digest. */
export function tokenMatches(token: string, digest: string): boolean {
  const a = Buffer.from(tokenDigest(token), 'hex');
  const b = Buffer.from(digest, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer {token}` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}
