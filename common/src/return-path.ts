import { hasRank, type Role } from './roles';
/**
 * Where a browser may be sent after signing in: a path on this site only. Anything that a browser could read
 * as another host (`//evil.example`, `/\evil.example`, `https://…`) or that carries control characters falls
 * back to `/`.
 */
export function safeReturnPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  // One slash then anything but a slash or backslash is a path on this host, however it goes on.
  return value;
}

/** Where sign-in lands (spec §4): a signer on the agreement first, anyone else where they were going. */
export function landingPath(role: Role, returnTo: unknown): string {
  return role === 'signer' ? '/terms' : safeReturnPath(returnTo);
}

/**
 * Where a password set, change or reset leads (spec §4): a signer to the agreement, a signed-in user to
 * /profile, anyone else (a reset signs nobody in) to /login.
 */
export function afterPassword(user: { role: Role }): string {
  if (user.role === 'signer') return '/terms';
  return hasRank(user.role, 'user') ? '/profile' : '/login';
}
