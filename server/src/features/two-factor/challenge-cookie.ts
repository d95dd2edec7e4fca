/**
 * The cookie that binds a sign-in waiting for its code to this browser: a random 256-bit id (only its hash is
 * stored), HttpOnly, SameSite=Strict, sent only to the code step's path, gone when the pending sign-in expires.
 */
import { TWO_FACTOR_PATHS, TWO_FACTOR_RULES } from '@tessera/common/two-factor';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookiePolicy } from '../../http/cookies';
import { newSessionToken } from '../sessions/tokens';

/** Over HTTPS the name carries the `__Secure-` prefix (`__Host-` would need Path=/). */
export function challengeCookieName(policy: CookiePolicy): string {
  return policy.secure ? '__Secure-tessera_2fa' : 'tessera_2fa';
}

export const newChallengeId = newSessionToken;

const cookieOptions = (policy: CookiePolicy) => ({
  path: TWO_FACTOR_PATHS.signIn,
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: policy.secure,
});

export function setChallengeCookie(reply: FastifyReply, policy: CookiePolicy, id: string): void {
  reply.setCookie(challengeCookieName(policy), id, {
    ...cookieOptions(policy),
    maxAge: TWO_FACTOR_RULES.pendingSeconds,
  });
}

export function readChallengeCookie(request: FastifyRequest, policy: CookiePolicy): string | null {
  const value = request.cookies[challengeCookieName(policy)];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

export function clearChallengeCookie(reply: FastifyReply, policy: CookiePolicy): void {
  reply.clearCookie(challengeCookieName(policy), cookieOptions(policy));
}
