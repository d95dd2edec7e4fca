/**
 * A new session token on every privilege change (accepting the agreement, impersonation start and stop): the
 * old session ends, the browser gets new cookies, and its open sockets follow the new session on every process.
 */
import type { User } from '@tessera/common/entities';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import { type CookiePolicy, setSessionCookies } from '../../http/cookies';
import { Unauthorized } from '../../http/errors';
import type { Hub } from '../../socket/hub';
import type { SessionContext, SessionService } from '../sessions/service';
import { findUserById } from '../users/repo';

export interface RotateTo {
  /** The user the new session acts as (default: the same). */
  userId?: number;
  /** The real user behind it while impersonating; null ends impersonation. */
  impersonatorId?: number | null;
}

export function createSessionRotation(deps: {
  database: Database;
  sessions: SessionService;
  hub: Hub;
  cookies: CookiePolicy;
}) {
  return {
    async rotate(
      request: FastifyRequest,
      reply: FastifyReply,
      session: SessionContext,
      to: RotateTo = {},
    ): Promise<User> {
      const found = await findUserById(deps.database.db, to.userId ?? session.userId);
      if (!found?.user.isActive) throw new Unauthorized('Your session has ended.');
      const started = await deps.sessions.start({
        user: found.user,
        organizationName: found.organizationName,
        remember: session.remember,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        impersonatorId: to.impersonatorId === undefined ? session.impersonatorId : to.impersonatorId,
      });
      await deps.sessions.end(session.id);
      await deps.hub.rotateSession(session.id, started.session.id, started.user);
      setSessionCookies(reply, deps.cookies, started.token, started.user, session.remember);
      request.user = started.user;
      request.session = started.session;
      return started.user;
    },
  };
}

export type SessionRotation = ReturnType<typeof createSessionRotation>;
