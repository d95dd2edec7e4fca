import { emailKey } from '@tessera/common/validation';
import type { Database } from '../../db/client';
import { Unauthorized } from '../../http/errors';
import type { Hub } from '../../socket/hub';
import { audit } from '../audit/record';
import type { SessionContext, SessionService, StartedSession } from '../sessions/service';
import type { Limiter } from '../throttle/limiter';
import { refuseWhenOver, THROTTLE_RULES, type ThrottleRule } from '../throttle/rules';
import type { TwoFactorService } from '../two-factor/service';
import { dummyHash, verifyPassword } from '../users/passwords';
import { findUserByEmail } from '../users/repo';

export const LOGIN_FAILED = 'The email or password is incorrect.';

export interface LoginInput {
  email: string;
  password: string;
  remember: boolean;
  ip: string;
  userAgent: string;
  /** Where the browser goes once signed in (kept with a sign-in that waits for its code). */
  returnTo?: string | null;
}

/** The password was right and the account has two-factor sign-in: the session waits for the code. */
export interface CodeStep {
  challengeId: string;
}

export function createAuthService(deps: {
  database: Database;
  sessions: SessionService;
  hub: Hub;
  limiter: Limiter;
  twoFactor: TwoFactorService;
}) {
  const { db } = deps.database;
  return {
    /**
     * Checks the password and starts a session. A miss costs the same argon2 work as a hit and gets the one
     * generic message; failures are counted per account and per client IP, and past the limit sign-in waits.
     * With two-factor sign-in on, a right password only opens the code step (decision 0063); the account's
     * failure count is then left as it is, so re-entering the password never buys more guesses at the code.
     */
    async login(input: LoginInput): Promise<StartedSession | CodeStep> {
      const keys: [string, ThrottleRule][] = [
        [`login:account:${emailKey(input.email)}`, THROTTLE_RULES.loginFailuresPerAccount],
        [`login:ip:${input.ip}`, THROTTLE_RULES.loginFailuresPerIp],
      ];
      await refuseWhenOver(deps.limiter, keys);
      const found = await findUserByEmail(db, input.email);
      const hash = found?.user.passwordHash ?? (await dummyHash());
      const ok = await verifyPassword(hash, input.password);
      if (!found?.user.passwordHash || !ok || !found.user.isActive) {
        for (const [key, rule] of keys) await deps.limiter.hit(key, rule.windowMs);
        await audit(db, { action: 'login.failure', targetType: 'user', targetId: found?.user.id ?? '', ip: input.ip });
        throw new Unauthorized(LOGIN_FAILED);
      }
      if (await deps.twoFactor.isOn(found.user.id)) {
        const challengeId = await deps.twoFactor.challenge({
          userId: found.user.id,
          remember: input.remember,
          returnTo: input.returnTo ?? null,
          provider: null,
        });
        return { challengeId };
      }
      await deps.limiter.reset(keys[0]![0]);
      await audit(db, {
        action: 'login.success',
        actorId: found.user.id,
        targetType: 'user',
        targetId: found.user.id,
        ip: input.ip,
      });
      return deps.sessions.start({
        user: found.user,
        organizationName: found.organizationName,
        remember: input.remember,
        ip: input.ip,
        userAgent: input.userAgent,
      });
    },

    /** Ends a session replaced by a new sign-in in the same browser, without signing that browser out. */
    async retire(session: SessionContext): Promise<void> {
      await deps.sessions.end(session.id);
    },

    /** Ends the session here and signs out its other tabs on every server process. */
    async logout(session: SessionContext | null): Promise<void> {
      if (!session) return;
      await audit(db, {
        action: 'logout',
        actorId: session.userId,
        impersonatorId: session.impersonatorId,
        targetType: 'session',
        targetId: session.id,
      });
      if (await deps.sessions.end(session.id)) await deps.hub.endSession(session.id);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
