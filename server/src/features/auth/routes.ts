/**
 * Password sign-in, sign-out and the caller's own record. The accounts issue adds the rest of /auth; an account with
 * two-factor sign-in gets `twoFactor: true` and the code step next (features/two-factor, decision 0063).
 */
import { ANONYMOUS_USER } from '@tessera/common/entities';
import { landingPath, safeReturnPath } from '@tessera/common/return-path';
import { ENROL_LOCATION } from '@tessera/common/two-factor';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientInfo } from '../../http/client-info';
import { type CookiePolicy, clearSessionCookies, setSessionCookies } from '../../http/cookies';
import { setChallengeCookie } from '../two-factor/challenge-cookie';
import type { TwoFactorService } from '../two-factor/service';
import { loginBody, loginReply, selfReply } from './schemas';
import type { AuthService } from './service';

export function registerAuthRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; cookies: CookiePolicy; twoFactor: TwoFactorService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/auth/login', { schema: { body: loginBody, response: { 200: loginReply } } }, async (request, reply) => {
    const { email, password, remember, returnTo } = request.body;
    const remembered = remember === true || remember === 'true';
    const started = await deps.auth.login({
      email,
      password,
      remember: remembered,
      returnTo: safeReturnPath(returnTo),
      ...clientInfo(request),
    });
    if ('challengeId' in started) {
      // The code step comes next on the same page; the pending sign-in is bound to this browser by its cookie.
      setChallengeCookie(reply, deps.cookies, started.challengeId);
      return { location: '/login', twoFactor: true as const };
    }
    // Signing in again in the same browser ends the session it had (no stale sessions behind a new one).
    if (request.session) await deps.auth.retire(request.session);
    setSessionCookies(reply, deps.cookies, started.token, started.user, remembered);
    // A signer goes to the agreement first (spec §4); staff who must turn on two-factor sign-in, to its set-up.
    if (await deps.twoFactor.mustEnrol({ id: started.user.id, role: started.user.role })) {
      return { location: landingPath(started.user.role, ENROL_LOCATION) };
    }
    return { location: landingPath(started.user.role, returnTo) };
  });

  r.put('/auth/logout', { schema: { response: { 200: selfReply } } }, async (request, reply) => {
    await deps.auth.logout(request.session);
    clearSessionCookies(reply, deps.cookies);
    return { self: ANONYMOUS_USER };
  });

  r.get('/v2/self', { schema: { response: { 200: selfReply } } }, async (request) => ({ self: request.user }));
}
