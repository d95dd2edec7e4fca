/**
 * Browser navigation to /oauth/{provider} and the provider's redirect back to /oauth/{provider}/callback (spec §7).
 * An unknown provider, or one not set up on this server, is a 404 naming it (the console shows only the configured
 * ones: GET /auth/providers); everything else ends in a redirect: to the provider, to '/' signed in, to /login's code
 * step when the account has two-factor sign-in (decision 0063), or to /login with a failure reason the page shows.
 * Nothing here answers 500.
 */
import {
  findProvider,
  IDENTITY_PROVIDERS,
  type IdentityProvider,
  PROVIDERS_PATH,
  providerNotConfigured,
} from '@tessera/common/providers';
import { landingPath } from '@tessera/common/return-path';
import { CODE_STEP_QUERY, ENROL_LOCATION } from '@tessera/common/two-factor';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { clientInfo } from '../../http/client-info';
import { type CookiePolicy, setSessionCookies } from '../../http/cookies';
import { NotFound } from '../../http/errors';
import type { SessionService } from '../sessions/service';
import type { Limiter } from '../throttle/limiter';
import { setChallengeCookie } from '../two-factor/challenge-cookie';
import type { TwoFactorService } from '../two-factor/service';
import { clearAttemptCookie, readAttemptCookie, setAttemptCookie } from './attempt-cookie';
import { failureLogFields, loginFailureLocation, OauthFailure } from './failures';
import { createProviderClients } from './provider-client';
import { createOauthService } from './service';

/** No HEAD twins: a HEAD request must not start or spend a sign-in attempt. */
const options = { schema: { params: z.object({ provider: z.string().max(40) }) }, exposeHeadRoute: false };

function knownProvider(id: string): IdentityProvider {
  const provider = findProvider(id);
  if (!provider) throw new NotFound('No such sign-in provider.');
  return provider;
}

function redirect(reply: FastifyReply, location: string) {
  // Neither the way out nor the way back may be cached: each carries one-time values.
  return reply.header('cache-control', 'no-store').redirect(location, 302);
}

function fail(request: FastifyRequest, reply: FastifyReply, provider: IdentityProvider, err: unknown) {
  const failure = err instanceof OauthFailure ? err : new OauthFailure('failed', undefined, err);
  const quiet = failure.reason === 'denied' || failure.reason === 'expired';
  request.log[quiet ? 'info' : 'warn'](failureLogFields(provider.id, failure), 'outside sign-in failed');
  return redirect(reply, loginFailureLocation(provider.id, failure.reason, failure.domain));
}

export interface OauthRouteDeps {
  config: Pick<Config, 'oauth' | 'publicUrl'>;
  database: Database;
  sessions: SessionService;
  limiter: Limiter;
  cookies: CookiePolicy;
  twoFactor: TwoFactorService;
}

/** Where an outside sign-in goes when the account has two-factor sign-in: the code step of /login. */
export const CODE_STEP_LOCATION = `/login?twoFactor=${CODE_STEP_QUERY}`;

export function registerOauthRoutes(app: FastifyInstance, deps: OauthRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const oauth = createOauthService({
    database: deps.database,
    sessions: deps.sessions,
    clients: createProviderClients(deps.config.oauth),
    limiter: deps.limiter,
    publicUrl: deps.config.publicUrl,
    twoFactor: deps.twoFactor,
  });

  /** The provider a request names when it is set up here; otherwise 404 saying it is not. */
  function configured(id: string) {
    const provider = knownProvider(id);
    if (oauth.isConfigured(provider.id)) return provider;
    throw new NotFound(providerNotConfigured(provider.name));
  }

  // Which buttons the console shows: ids and names only, nothing of the client registrations.
  r.get(PROVIDERS_PATH, async () => ({
    providers: IDENTITY_PROVIDERS.filter((p) => oauth.isConfigured(p.id)).map(({ id, name }) => ({ id, name })),
  }));

  r.get('/oauth/:provider', options, async (request, reply) => {
    const provider = configured(request.params.provider);
    try {
      const { attemptId, location } = await oauth.begin(provider.id, request.ip);
      setAttemptCookie(reply, deps.cookies, attemptId);
      return redirect(reply, location);
    } catch (err) {
      return fail(request, reply, provider, err);
    }
  });

  r.get('/oauth/:provider/callback', options, async (request, reply) => {
    // The attempt cookie is spent by any answer, an unconfigured provider's included.
    const attemptId = readAttemptCookie(request, deps.cookies);
    if (attemptId) clearAttemptCookie(reply, deps.cookies);
    const provider = configured(request.params.provider);
    const q = request.url.indexOf('?');
    try {
      const started = await oauth.complete(
        provider.id,
        attemptId,
        q < 0 ? '' : request.url.slice(q),
        clientInfo(request),
      );
      if ('challengeId' in started) {
        setChallengeCookie(reply, deps.cookies, started.challengeId);
        return redirect(reply, CODE_STEP_LOCATION);
      }
      // Signing in again in the same browser ends the session it had, as password sign-in does.
      if (request.session) await deps.sessions.end(request.session.id);
      setSessionCookies(reply, deps.cookies, started.token, started.user, false);
      const enrol = await deps.twoFactor.mustEnrol({ id: started.user.id, role: started.user.role });
      return redirect(reply, enrol ? ENROL_LOCATION : landingPath(started.user.role, '/'));
    } catch (err) {
      return fail(request, reply, provider, err);
    }
  });
}
