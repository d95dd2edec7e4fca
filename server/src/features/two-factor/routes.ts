/**
 * Two-factor routes: the owner's status, enrolment, confirmation, recovery codes and turning it off (each for a
 * full session of the account's owner, never while impersonating); the sign-in's code step; the operator's reset.
 */
import { landingPath } from '@tessera/common/return-path';
import { isRole } from '@tessera/common/roles';
import { TWO_FACTOR_MESSAGES as M, TWO_FACTOR_PATHS } from '@tessera/common/two-factor';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireRank } from '../../http/auth';
import { clientInfo } from '../../http/client-info';
import { type CookiePolicy, setSessionCookies } from '../../http/cookies';
import { Forbidden, Unauthorized } from '../../http/errors';
import type { SessionService } from '../sessions/service';
import { clearChallengeCookie, readChallengeCookie } from './challenge-cookie';
import type { Owner, TwoFactorService } from './service';

const code = z.string().trim().min(1, M.codeMissing).max(40, M.codeShape);
const codeBody = z.object({ code }).strict();
const proofBody = z
  .object({ code: z.string().trim().max(40, M.codeShape).optional(), password: z.string().max(100).optional() })
  .strict();
const recoveryCodesReply = z.object({ recoveryCodes: z.array(z.string()) });

/** The signed-in owner of the account, refusing an impersonating session: only the owner changes their sign-in. */
function owner(request: FastifyRequest): Owner {
  const { session, user } = request;
  if (!session) throw new Unauthorized();
  if (session.impersonatorId !== null) throw new Forbidden(M.notWhileImpersonating);
  if (!isRole(user.role)) throw new Forbidden();
  return { id: user.id, email: user.email, role: user.role, ip: request.ip, sessionId: session.id };
}

/** Replies that carry a secret or recovery codes are kept by no cache. */
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

export function registerTwoFactorRoutes(
  app: FastifyInstance,
  deps: { twoFactor: TwoFactorService; sessions: SessionService; cookies: CookiePolicy },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { twoFactor } = deps;
  const signedIn = { preValidation: requireRank('user') };

  r.get(TWO_FACTOR_PATHS.status, signedIn, async (request) => {
    const role = request.user.role;
    return { twoFactor: await twoFactor.status({ id: request.user.id, role: isRole(role) ? role : 'anonymous' }) };
  });

  r.post(TWO_FACTOR_PATHS.enrol, signedIn, async (request, reply) => {
    noStore(reply);
    return { enrolment: await twoFactor.enrol(owner(request)) };
  });

  r.post(
    TWO_FACTOR_PATHS.confirm,
    { ...signedIn, schema: { body: codeBody, response: { 200: recoveryCodesReply } } },
    async (request, reply) => {
      noStore(reply);
      return { recoveryCodes: await twoFactor.confirm(owner(request), request.body.code) };
    },
  );

  r.post(TWO_FACTOR_PATHS.disable, { ...signedIn, schema: { body: proofBody } }, async (request) => {
    await twoFactor.disable(owner(request), request.body);
    return { twoFactor: await twoFactor.status({ id: request.user.id, role: owner(request).role }) };
  });

  r.post(
    TWO_FACTOR_PATHS.recoveryCodes,
    { ...signedIn, schema: { body: proofBody, response: { 200: recoveryCodesReply } } },
    async (request, reply) => {
      noStore(reply);
      return { recoveryCodes: await twoFactor.renewRecoveryCodes(owner(request), request.body) };
    },
  );

  r.post(TWO_FACTOR_PATHS.signIn, { schema: { body: codeBody } }, async (request, reply) => {
    const challengeId = readChallengeCookie(request, deps.cookies);
    let done: Awaited<ReturnType<TwoFactorService['complete']>>;
    try {
      done = await twoFactor.complete(challengeId, request.body.code, clientInfo(request));
    } catch (err) {
      // A pending sign-in that is gone stays gone: the browser forgets its cookie too.
      if (err instanceof Unauthorized) clearChallengeCookie(reply, deps.cookies);
      throw err;
    }
    clearChallengeCookie(reply, deps.cookies);
    // Signing in again in the same browser ends the session it had, as the password step does.
    if (request.session) await deps.sessions.end(request.session.id);
    const { started, returnTo } = done;
    setSessionCookies(reply, deps.cookies, started.token, started.user, started.session.remember);
    return { location: landingPath(started.user.role, returnTo) };
  });

  const userParams = z.object({ id: z.coerce.number().int().positive() });
  r.get(
    '/v2/users/:id/two-factor',
    { preValidation: requireRank('root'), schema: { params: userParams } },
    async (request) => ({ twoFactor: await twoFactor.operatorStatus(request.params.id) }),
  );

  r.delete(
    '/v2/users/:id/two-factor',
    { preValidation: requireRank('root'), schema: { params: userParams } },
    async (request) => {
      // One's own is turned off with proof (a code or the password) from the profile, never with one click.
      if (request.params.id === request.user.id) throw new Forbidden(M.resetOwn);
      await twoFactor.reset(
        { id: request.user.id, impersonatorId: request.session?.impersonatorId ?? null, ip: request.ip },
        request.params.id,
      );
      return { reset: true };
    },
  );
}
