/**
 * The cookie that binds a sign-in attempt to this browser: a random 256-bit id, HttpOnly, SameSite=Lax (the
 * provider's redirect back is a top-level GET, so the browser still sends it), scoped to /oauth, gone in 10 minutes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookiePolicy } from '../../http/cookies';
import { newSessionToken } from '../sessions/tokens';

export const ATTEMPT_TTL_S = 10 * 60;
const PATH = '/oauth';

/** Over HTTPS the name carries the `__Secure-` prefix (`__Host-` would need Path=/). */
export function attemptCookieName(policy: CookiePolicy): string {
  return policy.secure ? '__Secure-tessera_oauth' : 'tessera_oauth';
}

/** The same 256 random bits as a session token. */
export const newAttemptId = newSessionToken;

const cookieOptions = (policy: CookiePolicy) => ({
  path: PATH,
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: policy.secure,
});

export function setAttemptCookie(reply: FastifyReply, policy: CookiePolicy, attemptId: string): void {
  reply.setCookie(attemptCookieName(policy), attemptId, { ...cookieOptions(policy), maxAge: ATTEMPT_TTL_S });
}

export function readAttemptCookie(request: FastifyRequest, policy: CookiePolicy): string | null {
  const value = request.cookies[attemptCookieName(policy)];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

export function clearAttemptCookie(reply: FastifyReply, policy: CookiePolicy): void {
  reply.clearCookie(attemptCookieName(policy), cookieOptions(policy));
}
