import type { Database } from '../../db/client';
import { Unauthorized } from '../../http/errors';
import type { Hub } from '../../socket/hub';
import type { SessionContext, SessionService, StartedSession } from '../sessions/service';
import { dummyHash, verifyPassword } from '../users/passwords';
import { findUserByEmail } from '../users/repo';

export const LOGIN_FAILED = 'The email or password is incorrect.';

export interface LoginInput {
  email: string;
  password: string;
  remember: boolean;
  ip: string;
  userAgent: string;
}

export function createAuthService(deps: { database: Database; sessions: SessionService; hub: Hub }) {
  return {
    /** Checks the password and starts a session; a miss costs the same argon2 work as a hit. */
    async login(input: LoginInput): Promise<StartedSession> {
      const found = await findUserByEmail(deps.database.db, input.email);
      const hash = found?.user.passwordHash ?? (await dummyHash());
      const ok = await verifyPassword(hash, input.password);
      if (!found?.user.passwordHash || !ok || !found.user.isActive) throw new Unauthorized(LOGIN_FAILED);
      return deps.sessions.start({
        user: found.user,
        organizationName: found.organizationName,
        remember: input.remember,
        ip: input.ip,
        userAgent: input.userAgent,
      });
    },

    /** Ends the session here and signs out its other tabs on every server process. */
    async logout(session: SessionContext | null): Promise<void> {
      if (!session) return;
      if (await deps.sessions.end(session.id)) await deps.hub.endSession(session.id);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
