/**
 * Spec §2 Terms and §7 calls: the current agreement, and accepting it. A user who has not accepted the newest
 * agreement acts as a signer, and every other call answers 451 (see http/standing-gate.ts). The agreement comes
 * with when the user accepted it (null if not yet), so the Terms page can tell one who has when they did.
 * Declining is signing out without accepting (PUT /auth/logout, open to signers): decision 0060.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { requireRank } from '../../http/auth';
import { Conflict, Forbidden, Unavailable } from '../../http/errors';
import { audit } from '../audit/record';
import type { SessionRotation } from '../auth/rotation';
import { acceptedAt, currentAgreement, recordAcceptance } from './repo';

export const AGREEMENT_CHANGED = 'The agreement has changed since you opened it. Please read the new version.';

const termsReply = z.object({
  nda: z.string(),
  ndaId: z.number().int(),
  /** When the user (the impersonated one, while impersonating) accepted this version; null if not yet. */
  ndaAcceptedAt: z.string().nullable(),
});

export function registerTermsRoutes(app: FastifyInstance, deps: { database: Database; rotation: SessionRotation }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v2/terms',
    { preHandler: requireRank('signer'), schema: { response: { 200: termsReply } } },
    async (request) => {
      const { db } = deps.database;
      const agreement = await currentAgreement(db);
      if (!agreement) throw new Unavailable('No agreement has been published.');
      const at = await acceptedAt(db, request.user.id, agreement.id);
      return { nda: agreement.body, ndaId: agreement.id, ndaAcceptedAt: at?.toISOString() ?? null };
    },
  );

  r.post(
    '/v2/terms/accept',
    { preHandler: requireRank('signer'), schema: { body: z.object({ ndaId: z.number().int().positive() }) } },
    async (request, reply) => {
      const { user, session } = request;
      // Nobody accepts the agreement on another's behalf.
      if (session?.impersonatorId) throw new Forbidden('Stop impersonating to accept the agreement.');
      // Signer to user is a privilege change: the acceptance and a new session token go together (spec §4).
      const self = await deps.rotation.rotate(request, reply, {
        change: async (tx) => {
          const agreement = await currentAgreement(tx);
          if (!agreement || agreement.id !== request.body.ndaId) throw new Conflict(AGREEMENT_CHANGED);
          await recordAcceptance(tx, user.id, agreement.id, request.ip);
          await audit(tx, {
            action: 'agreement.accept',
            actorId: user.id,
            targetType: 'agreement',
            targetId: agreement.id,
            ip: request.ip,
          });
        },
      });
      return { self };
    },
  );
}
