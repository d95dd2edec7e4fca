/**
 * Outside sign-in, authorization code flow with PKCE (S256), state and nonce. `begin` stores the attempt and
 * names the provider URL; `complete` takes the attempt back (once), checks the provider's answer and starts a
 * session for the account it resolves to. Every way this can fail is an OauthFailure with a reason for /login.
 */
import type { ProviderId } from '@tessera/common/providers';
import * as client from 'openid-client';
import type { Database } from '../../db/client';
import type { ClientInfo } from '../../http/client-info';
import { audit } from '../audit/record';
import type { SessionService, StartedSession } from '../sessions/service';
import type { Limiter } from '../throttle/limiter';
import { THROTTLE_RULES } from '../throttle/rules';
import type { TwoFactorService } from '../two-factor/service';
import { resolveAccount } from './accounts';
import { newAttemptId } from './attempt-cookie';
import { dropExpiredAttempts, saveAttempt, takeAttempt } from './attempts';
import { OauthFailure } from './failures';
import type { ProviderClients } from './provider-client';

export interface OauthServiceDeps {
  database: Database;
  sessions: SessionService;
  clients: ProviderClients;
  limiter: Limiter;
  publicUrl: URL;
  twoFactor: TwoFactorService;
}

/** An account with two-factor sign-in: the provider vouched for the first factor, the code is still to come. */
export interface CodeStep {
  challengeId: string;
}

export type Visitor = ClientInfo;

/** Where the provider sends the browser back: always from PUBLIC_URL (keeping its path prefix), never the Host header. */
export function redirectUri(publicUrl: URL, provider: ProviderId): string {
  return `${publicUrl.origin}${publicUrl.pathname.replace(/\/+$/, '')}/oauth/${provider}/callback`;
}

/** Network trouble means the provider is unreachable; anything else it answered did not check out. */
function unreachable(err: unknown): boolean {
  const { name, code } = (err ?? {}) as { name?: string; code?: string };
  return (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    // openid-client wraps its own timeouts and aborts in a ClientError with these codes.
    code === 'OAUTH_TIMEOUT' ||
    code === 'OAUTH_ABORT' ||
    (err instanceof TypeError && err.message === 'fetch failed')
  );
}

/** The reason /login shows for whatever went wrong; exported for its tests. */
export function asFailure(err: unknown): OauthFailure {
  if (err instanceof OauthFailure) return err;
  if (err instanceof client.AuthorizationResponseError && err.error === 'access_denied') {
    return new OauthFailure('denied', undefined, err);
  }
  return new OauthFailure(unreachable(err) ? 'unavailable' : 'failed', undefined, err);
}

export function createOauthService(deps: OauthServiceDeps) {
  const { database, clients, publicUrl } = deps;

  return {
    isConfigured: clients.isConfigured,

    /** A new attempt for this browser: its cookie id and the provider URL to send the browser to. */
    async begin(provider: ProviderId, ip: string): Promise<{ attemptId: string; location: string }> {
      // Each start writes a row: a visitor may start only so many.
      const { count } = await deps.limiter.hit(`oauth:ip:${ip}`, THROTTLE_RULES.oauthStartsPerIp.windowMs);
      if (count > THROTTLE_RULES.oauthStartsPerIp.limit) throw new OauthFailure('throttled');
      const attemptId = newAttemptId();
      const checks = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      let location: URL;
      try {
        location = await clients.authorizationUrl(provider, redirectUri(publicUrl, provider), checks);
      } catch (err) {
        throw new OauthFailure('unavailable', undefined, err);
      }
      await dropExpiredAttempts(database.db);
      await saveAttempt(database.db, attemptId, { provider, ...checks });
      return { attemptId, location: location.href };
    },

    /**
     * The provider's redirect back. `search` is the callback's raw query string; the attempt is used up whatever
     * happens next, so a callback can never be replayed.
     */
    async complete(
      provider: ProviderId,
      attemptId: string | null,
      search: string,
      visitor: Visitor,
    ): Promise<StartedSession | CodeStep> {
      const attempt = attemptId ? await takeAttempt(database.db, attemptId) : null;
      if (!attempt) throw new OauthFailure('expired');
      try {
        // An attempt started for another provider must not be finished by this one's answer.
        if (attempt.provider !== provider) throw new OauthFailure('failed');
        const callbackUrl = new URL(`${redirectUri(publicUrl, provider)}${search}`);
        const claims = await clients.exchange(provider, callbackUrl, attempt);
        const account = await resolveAccount(database, provider, claims, visitor.ip);
        // Two-factor sign-in holds for outside sign-in too (decision 0063): the session waits for the code.
        if (await deps.twoFactor.isOn(account.user.id)) {
          const challengeId = await deps.twoFactor.challenge({
            userId: account.user.id,
            remember: false,
            returnTo: null,
            provider,
          });
          return { challengeId };
        }
        // The session and its audit row go together, or neither does.
        return await database.transaction(async (tx) => {
          const started = await deps.sessions.start(
            { user: account.user, organizationName: account.organizationName, remember: false, ...visitor },
            tx,
          );
          await audit(tx, {
            action: 'login.success',
            actorId: account.user.id,
            targetType: 'user',
            targetId: account.user.id,
            ip: visitor.ip,
            detail: { provider },
          });
          return started;
        });
      } catch (err) {
        const failure = asFailure(err);
        await audit(database.db, {
          action: 'login.failure',
          ip: visitor.ip,
          detail: { provider, reason: failure.reason },
        }).catch(() => {}); // the visitor still gets their answer if the audit write fails
        throw failure;
      }
    },
  };
}
