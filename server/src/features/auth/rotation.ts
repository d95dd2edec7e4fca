/**
 * A new session token on every privilege change (accepting the agreement, impersonation start and stop): in one
 * transaction the change itself, the new session and the end of the old one; then the browser gets new cookies
 * and its open sockets follow the new session on every process.
 */
import type { User } from '@tessera/common/entities';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Executor } from '../../db/client';
import { clientInfo } from '../../http/client-info';
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
  /** The privilege change itself (and its audit row), written in the same transaction. */
  change?: (tx: Executor) => Promise<void>;
}

export function createSessionRotation(deps: {
  database: Database;
  sessions: SessionService;
  hub: Hub;
  cookies: CookiePolicy;
}) {
  return {
    async rotate(request: FastifyRequest, reply: FastifyReply, to: RotateTo = {}): Promise<User> {
      const session = request.session as SessionContext | null;
      if (!session) throw new Unauthorized();
      const started = await deps.database.transaction(async (tx) => {
        await to.change?.(tx);
        const found = await findUserById(tx, to.userId ?? session.userId);
        if (!found?.user.isActive) throw new Unauthorized('Your session has ended.');
        const next = await deps.sessions.start(
          {
            user: found.user,
            organizationName: found.organizationName,
            remember: session.remember,
            ...clientInfo(request),
            impersonatorId: to.impersonatorId === undefined ? session.impersonatorId : to.impersonatorId,
          },
          tx,
        );
        await deps.sessions.end(session.id, tx);
        return next;
      });
      setSessionCookies(reply, deps.cookies, started.token, started.user, session.remember);
      // The browser's sockets learn the new user only once this reply (and its new cookie) is on its way: told
      // first, a page could act on the new rank and ask with the old cookie, get 401 and sign itself out.
      const tellSockets = () => {
        deps.hub.rotateSession(session.id, started.session.id, started.user).catch((err: unknown) => {
          request.log.warn({ err }, 'session rotation not told to the sockets');
        });
      };
      if (reply.raw.writableFinished) tellSockets();
      else reply.raw.once('finish', tellSockets);
      request.user = started.user;
      request.session = started.session;
      return started.user;
    },
  };
}

export type SessionRotation = ReturnType<typeof createSessionRotation>;
