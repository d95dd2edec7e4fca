/**
 * /v2/sessions (decision 0007): everyone lists and ends their own sessions ("sign out everywhere" ends the others);
 * super and root list every live session and end those of users below them. Ending one closes its sockets.
 */
import { RESOURCE_PATHS, type SessionEntry } from '@tessera/common/resources';
import { canEndSession, hasRank, isRole } from '@tessera/common/roles';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Executor } from '../../db/client';
import { requireRank } from '../../http/auth';
import { Forbidden, NotFound } from '../../http/errors';
import { keyed } from '../../http/keyed';
import type { Hub } from '../../socket/hub';
import { actorOf, audit } from '../audit/record';
import { NOT_FOUND } from '../console/access';
import { idParams } from '../organizations/schemas';
import { findLiveSessionById, listLiveSessions } from './repo';
import type { SessionService } from './service';

export const SESSION_MESSAGES = {
  revokeRefused: 'You may only end the sessions of users with a lower role than yours.',
} as const;

type ListedRow = Awaited<ReturnType<typeof listLiveSessions>>[number];

function toSessionEntry(row: ListedRow, currentId: number | undefined): SessionEntry {
  const { session, user } = row;
  return {
    id: session.id,
    userId: user.id,
    userEmail: user.email,
    userName: user.name,
    userRole: isRole(user.role) ? user.role : 'user',
    organizationId: user.organizationId,
    organizationName: row.organizationName ?? '',
    impersonatorId: session.impersonatorId,
    ip: session.ip,
    userAgent: session.userAgent,
    remember: session.remember,
    createdAt: session.createdAt.toISOString(),
    lastSeenAt: session.lastSeenAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    current: session.id === currentId,
  };
}

export function registerSessionRoutes(
  app: FastifyInstance,
  deps: { database: Database; sessions: SessionService; hub: Hub },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;

  /** Ends sessions and audits it in one transaction; then their browsers are told, on every process. */
  async function endAudited(
    request: FastifyRequest,
    ownerId: number,
    end: (tx: Executor) => Promise<number[]>,
  ): Promise<{ sessions: Record<string, { id: number; deletedAt: string }> }> {
    const ids = await database.transaction(async (tx) => {
      const ended = await end(tx);
      if (ended.length > 0) {
        await audit(tx, {
          action: 'session.revoke',
          ...actorOf(request),
          targetType: 'user',
          targetId: ownerId,
          detail: { sessions: ended },
        });
      }
      return ended;
    });
    await Promise.all(ids.map((id) => deps.hub.endSession(id)));
    const at = new Date().toISOString();
    return { sessions: keyed(ids.map((id) => ({ id, deletedAt: at }))) };
  }

  r.get(
    RESOURCE_PATHS.sessions,
    { preHandler: requireRank('user'), schema: { querystring: z.object({ mine: z.stringbool().optional() }) } },
    async (request) => {
      const { user, session } = request;
      const everyone = hasRank(user.role, 'super') && !request.query.mine;
      const rows = await listLiveSessions(database.db, everyone ? undefined : user.id);
      return { sessions: keyed(rows.map((row) => toSessionEntry(row, session?.id))) };
    },
  );

  r.delete(
    `${RESOURCE_PATHS.sessions}/:id`,
    { preHandler: requireRank('user'), schema: { params: idParams } },
    async (request) => {
      const { user } = request;
      const owner = await findLiveSessionById(database.db, request.params.id);
      if (!owner || (owner.ownerId !== user.id && !hasRank(user.role, 'super'))) throw new NotFound(NOT_FOUND.session);
      if (!isRole(owner.ownerRole) || !canEndSession(user, { id: owner.ownerId, role: owner.ownerRole }))
        throw new Forbidden(SESSION_MESSAGES.revokeRefused);
      return endAudited(request, owner.ownerId, async (tx) =>
        (await deps.sessions.end(owner.id, tx)) ? [owner.id] : [],
      );
    },
  );

  /** Sign out everywhere else: every session of the caller but this one. */
  r.delete(RESOURCE_PATHS.sessions, { preHandler: requireRank('user') }, async (request) => {
    const { user, session } = request;
    return endAudited(request, user.id, (tx) => deps.sessions.endOthers(user.id, session?.id ?? null, tx));
  });
}
