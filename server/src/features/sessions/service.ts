import type { User } from '@tessera/common/entities';
import { canImpersonate, isRole } from '@tessera/common/roles';
import type { Database, Executor } from '../../db/client';
import { hasAcceptedCurrentAgreement } from '../terms/repo';
import { toUserRecord } from '../users/record';
import { findUserById, type UserRow } from '../users/repo';
import { BROWSER_SESSION_MS, REMEMBER_MS, TOUCH_INTERVAL_MS } from './policy';
import {
  findLiveSession,
  insertSession,
  revokeSession,
  revokeSessionsInvolving,
  revokeUserSessions,
  type SessionScope,
  touchSession,
} from './repo';
import { hashToken, newSessionToken } from './tokens';

export interface SessionContext {
  id: number;
  userId: number;
  impersonatorId: number | null;
  remember: boolean;
  scope: SessionScope;
  expiresAt: Date;
}

export interface Resolved {
  session: SessionContext;
  user: User;
}

export interface StartSessionInput {
  user: UserRow;
  organizationName: string | null;
  remember: boolean;
  ip: string;
  userAgent: string;
  impersonatorId?: number | null;
  /** 'reset' or 'set' for a session from such a link. */
  scope?: SessionScope;
  /** Overrides the lifetime (a password-only session lasts an hour). */
  lifetimeMs?: number;
}

export interface StartedSession extends Resolved {
  /** The cookie value; never stored. */
  token: string;
}

async function impersonationStillAllowed(
  database: Database,
  impersonatorId: number,
  target: UserRow,
): Promise<boolean> {
  const real = await findUserById(database.db, impersonatorId);
  if (!real?.user.isActive || !isRole(real.user.role) || !isRole(target.role)) return false;
  return canImpersonate({ id: real.user.id, role: real.user.role }, { id: target.id, role: target.role });
}

/**
 * Sessions. `start`, `end` and `endOthers` take an optional executor so a caller can make them part of its own
 * transaction (a password change and the sessions it ends, a privilege change and its new token).
 */
export function createSessionService(
  database: Database,
  /** Told when resolving a request ends a session, so that session's sockets close on every process. */
  onEnded: (sessionId: number) => Promise<void> = async () => {},
) {
  return {
    async start(input: StartSessionInput, db: Executor = database.db): Promise<StartedSession> {
      const token = newSessionToken();
      const lifetime = input.lifetimeMs ?? (input.remember ? REMEMBER_MS : BROWSER_SESSION_MS);
      const expiresAt = new Date(Date.now() + lifetime);
      const scope = input.scope ?? 'full';
      // The agreement gate follows the real user while impersonating (decision 0006).
      const acceptedTerms = Boolean(input.impersonatorId) || (await hasAcceptedCurrentAgreement(db, input.user.id));
      const row = await insertSession(db, {
        tokenHash: hashToken(token),
        userId: input.user.id,
        impersonatorId: input.impersonatorId ?? null,
        ip: input.ip,
        userAgent: input.userAgent.slice(0, 500),
        remember: input.remember,
        scope,
        expiresAt,
      });
      const standing = { passwordOnly: scope !== 'full', acceptedTerms };
      const user = toUserRecord(input.user, input.organizationName, expiresAt.getTime(), standing, row.impersonatorId);
      return { token, session: row, user };
    },

    /** The session and user behind a cookie token, or null when it is unknown, ended or expired. */
    async resolve(token: string): Promise<Resolved | null> {
      const row = await findLiveSession(database.db, hashToken(token));
      if (!row) return null;
      const { session } = row;
      // While impersonating, the real user's rights are checked again on every request (spec §6).
      if (
        session.impersonatorId !== null &&
        !(await impersonationStillAllowed(database, session.impersonatorId, row.user))
      ) {
        await revokeSession(database.db, session.id);
        await onEnded(session.id);
        return null;
      }
      if (Date.now() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
        await touchSession(database.db, session.id);
      }
      return {
        session,
        user: toUserRecord(
          row.user,
          row.organizationName,
          session.expiresAt.getTime(),
          // The agreement gate follows the real user, who is past it; nobody accepts it on another's behalf.
          {
            passwordOnly: session.scope !== 'full',
            acceptedTerms: row.acceptedTerms || session.impersonatorId !== null,
          },
          session.impersonatorId,
        ),
      };
    },

    end(sessionId: number, db: Executor = database.db): Promise<boolean> {
      return revokeSession(db, sessionId);
    },

    /** Ends the sessions the user owns but `keep` (all of them when null); returns the ended ids. */
    endOthers(userId: number, keep: number | null, db: Executor = database.db): Promise<number[]> {
      return revokeUserSessions(db, userId, keep);
    },

    /** Ends every session the user owns or is acted as in (their standing changed); returns the ended ids. */
    endInvolving(userId: number, db: Executor = database.db): Promise<number[]> {
      return revokeSessionsInvolving(db, userId);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
