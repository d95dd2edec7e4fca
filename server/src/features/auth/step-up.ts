/**
 * Step-up (issue 20): POST /auth/confirm {password} records that this session's password was confirmed now.
 * Sensitive tools (the query console) then ask `requireStepUp`: the password confirmed, or the tool used under
 * it, within the last QUERY_LIMITS.stepUpMs; otherwise 403 `step_up_required`, which the page turns into a
 * password prompt. While impersonating, the password is the real user's (the person at the keyboard).
 * A wrong password is a 400 naming the field (a 401 would sign the browser out), counted like failed sign-ins.
 */
import { QUERY_LIMITS, QUERY_MESSAGES } from '@tessera/common/query-console';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Executor } from '../../db/client';
import { sessionConfirmations } from '../../db/schema';
import { requireRank } from '../../http/auth';
import { AppError, BadRequest, Unauthorized } from '../../http/errors';
import { audit } from '../audit/record';
import type { Limiter } from '../throttle/limiter';
import { refuseWhenOver, THROTTLE_RULES } from '../throttle/rules';
import { verifyPassword } from '../users/passwords';
import { findUserById } from '../users/repo';

export class StepUpRequired extends AppError {
  constructor() {
    super(403, 'step_up_required', QUERY_MESSAGES.stepUp);
  }
}

const confirmBody = z.object({ password: z.string().min(1, 'Please provide your password.').max(100) }).strict();

/** Whether the session confirmed its password (or used a guarded tool) recently enough; if so, marks it used now. */
export async function useStepUp(db: Executor, sessionId: number, now = new Date()): Promise<boolean> {
  const since = new Date(now.getTime() - QUERY_LIMITS.stepUpMs);
  const rows = await db
    .update(sessionConfirmations)
    .set({ usedAt: now })
    .where(
      sql`${sessionConfirmations.sessionId} = ${sessionId} and greatest(${sessionConfirmations.confirmedAt}, ${sessionConfirmations.usedAt}) > ${since}`,
    )
    .returning({ id: sessionConfirmations.sessionId });
  return rows.length > 0;
}

/** preValidation guard: 401/403 by rank, then 403 step_up_required without a fresh confirmation. */
export function requireStepUp(database: Database, minimum: 'root' = 'root') {
  const rank = requireRank(minimum);
  return async (request: FastifyRequest) => {
    await rank(request);
    if (!request.session || !(await useStepUp(database.db, request.session.id))) throw new StepUpRequired();
  };
}

export function registerStepUpRoutes(app: FastifyInstance, deps: { database: Database; limiter: Limiter }): void {
  const { database, limiter } = deps;
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/auth/confirm', { preValidation: requireRank('user'), schema: { body: confirmBody } }, async (request) => {
      const session = request.session;
      if (!session) throw new Unauthorized();
      const person = session.impersonatorId ?? session.userId;
      const keys: [string, (typeof THROTTLE_RULES)['loginFailuresPerAccount']][] = [
        [`confirm:account:${person}`, THROTTLE_RULES.loginFailuresPerAccount],
      ];
      await refuseWhenOver(limiter, keys);
      const found = await findUserById(database.db, person);
      const hash = found?.user.passwordHash;
      if (!hash)
        throw new BadRequest(QUERY_MESSAGES.noPassword, [
          { path: 'body.password', message: QUERY_MESSAGES.noPassword },
        ]);
      if (!(await verifyPassword(hash, request.body.password))) {
        await limiter.hit(keys[0]![0], keys[0]![1].windowMs);
        await audit(database.db, {
          action: 'stepup.failure',
          actorId: person,
          targetType: 'session',
          targetId: session.id,
          ip: request.ip,
        });
        throw new BadRequest(QUERY_MESSAGES.wrongPassword, [
          { path: 'body.password', message: QUERY_MESSAGES.wrongPassword },
        ]);
      }
      const now = new Date();
      await database.transaction(async (tx) => {
        await tx
          .insert(sessionConfirmations)
          .values({ sessionId: session.id, confirmedAt: now, usedAt: now })
          .onConflictDoUpdate({ target: sessionConfirmations.sessionId, set: { confirmedAt: now, usedAt: now } });
        await audit(tx, {
          action: 'stepup.confirm',
          actorId: person,
          impersonatorId: session.impersonatorId,
          targetType: 'session',
          targetId: session.id,
          ip: request.ip,
        });
      });
      return {
        confirmed: { at: now.toISOString(), until: new Date(now.getTime() + QUERY_LIMITS.stepUpMs).toISOString() },
      };
    });
}
