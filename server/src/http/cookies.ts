/**
 * The two cookies of spec §4: an HttpOnly session token, and a readable cookie carrying the public user
 * record and its expiry. Over HTTPS the token cookie takes the `__Host-` prefix and both are Secure.
 */
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, USER_COOKIE, type User } from '@tessera/common/entities';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface CookiePolicy {
  secure: boolean;
}

export function sessionCookieName(policy: CookiePolicy): string {
  return policy.secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

export function readSessionToken(request: FastifyRequest, policy: CookiePolicy): string | null {
  const value = request.cookies[sessionCookieName(policy)];
  return value && value.length <= 100 ? value : null;
}

export function encodeUserCookie(user: User): string {
  return encodeURIComponent(JSON.stringify(user));
}

export function setSessionCookies(
  reply: FastifyReply,
  policy: CookiePolicy,
  token: string,
  user: User,
  remember: boolean,
): void {
  // Without "Remember me" both cookies end with the browser; with it they last as long as the session.
  const maxAge = remember ? Math.max(0, Math.floor((user.expires - Date.now()) / 1000)) : undefined;
  const common = { path: '/', sameSite: 'lax' as const, secure: policy.secure, maxAge };
  reply.setCookie(sessionCookieName(policy), token, { ...common, httpOnly: true });
  // The value is already URI-encoded; the cookie library must not encode it twice.
  reply.setCookie(USER_COOKIE, encodeUserCookie(user), { ...common, httpOnly: false, encode: (v) => v });
}

export function clearSessionCookies(reply: FastifyReply, policy: CookiePolicy): void {
  const common = { path: '/', sameSite: 'lax' as const, secure: policy.secure };
  reply.clearCookie(sessionCookieName(policy), { ...common, httpOnly: true });
  reply.clearCookie(USER_COOKIE, common);
}
