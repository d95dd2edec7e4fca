/**
 * Spec §4/§6 impersonation: super or higher, strictly above the target; start stores the real user as the
 * impersonator and switches; stop restores them. No nesting. Each step issues a new session token and is audited
 * with both ids. While it lasts, the session may read who is behind it, for the console's impersonation bar.
 */
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { canImpersonate, isRole, ROLES } from '@tessera/common/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { requireRank } from '../../http/auth';
import { Conflict, Forbidden, NotFound } from '../../http/errors';
import { audit } from '../audit/record';
import { findUserById } from '../users/repo';
import type { SessionRotation } from './rotation';

export const IMPERSONATION_MESSAGES = {
  nested: 'Stop impersonating before impersonating someone else.',
  notImpersonating: 'You are not impersonating anyone.',
  refused: 'You may only impersonate users of a lower role than yours.',
} as const;

/** Who is behind an impersonating session: the staff user's name, address and role, nothing more. */
const impersonationReply = z.object({
  impersonation: z.object({
    impersonator: z.object({ id: z.number().int(), name: z.string(), email: z.string(), role: z.enum(ROLES) }),
  }),
});

export function registerImpersonationRoutes(
  app: FastifyInstance,
  deps: { database: Database; rotation: SessionRotation },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/auth/impersonate/:id',
    { preHandler: requireRank('super'), schema: { params: z.object({ id: z.coerce.number().int().positive() }) } },
    async (request, reply) => {
      const { user, session } = request;
      if (!session) throw new Forbidden();
      if (session.impersonatorId !== null) throw new Conflict(IMPERSONATION_MESSAGES.nested);
      const target = await findUserById(deps.database.db, request.params.id);
      if (!target?.user.isActive || !isRole(target.user.role)) throw new NotFound('No such user.');
      if (!canImpersonate(user, { id: target.user.id, role: target.user.role })) {
        throw new Forbidden(IMPERSONATION_MESSAGES.refused);
      }
      const self = await deps.rotation.rotate(request, reply, {
        userId: target.user.id,
        impersonatorId: user.id,
        change: (tx) =>
          audit(tx, {
            action: 'impersonation.start',
            actorId: target.user.id,
            impersonatorId: user.id,
            targetType: 'user',
            targetId: target.user.id,
            ip: request.ip,
          }),
      });
      return { self, location: '/' };
    },
  );

  r.get(
    AUTH_PATHS.impersonation,
    { preHandler: requireRank('resetter'), schema: { response: { 200: impersonationReply } } },
    async (request) => {
      const { session } = request;
      if (!session || session.impersonatorId === null) throw new Conflict(IMPERSONATION_MESSAGES.notImpersonating);
      const found = await findUserById(deps.database.db, session.impersonatorId);
      // The staff user was deleted since: the session is theirs no more (it ends with them), so say nothing.
      if (!found || !isRole(found.user.role)) throw new Conflict(IMPERSONATION_MESSAGES.notImpersonating);
      const { id, name, email, role } = found.user;
      return { impersonation: { impersonator: { id, name, email, role } } };
    },
  );

  r.put('/auth/stopImpersonating', { preHandler: requireRank('resetter') }, async (request, reply) => {
    const { session } = request;
    if (!session || session.impersonatorId === null) throw new Conflict(IMPERSONATION_MESSAGES.notImpersonating);
    const realUser = session.impersonatorId;
    const self = await deps.rotation.rotate(request, reply, {
      userId: realUser,
      impersonatorId: null,
      change: (tx) =>
        audit(tx, {
          action: 'impersonation.stop',
          actorId: session.userId,
          impersonatorId: realUser,
          targetType: 'user',
          targetId: session.userId,
          ip: request.ip,
        }),
    });
    return { self, location: '/' };
  });
}
