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
