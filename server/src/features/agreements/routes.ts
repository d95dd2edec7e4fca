/**
 * Agreement versions (issue 18 item 5), super+ only: list the versions with how many accepted each, publish a new
 * one (its HTML sanitised on save), and list who accepted one. Publishing makes every user a signer until they
 * accept it: the gate compares each session with the newest version on every request (decision 0006).
 */
import { AGREEMENT_LIMITS, AGREEMENT_MESSAGES } from '@tessera/common/contact';
import { hasRank } from '@tessera/common/roles';
import { requiredText } from '@tessera/common/schemas/fields';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { BadRequest, Forbidden, NotFound, Unauthorized } from '../../http/errors';
import { audit } from '../audit/record';
import { publishAgreement } from '../terms/repo';
import { acceptancesOf, findVersion, listVersions } from './repo';
import { hasText, sanitizeAgreement } from './sanitize';

const publishBody = z.object({ html: requiredText('the agreement text', AGREEMENT_LIMITS.html) }).strict();
const versionParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

async function superOnly(request: FastifyRequest): Promise<void> {
  if (hasRank(request.user.role, 'super')) return;
  if (request.user.id === 0) throw new Unauthorized();
  throw new Forbidden(AGREEMENT_MESSAGES.forbidden);
}

export function registerAgreementRoutes(app: FastifyInstance, deps: { database: Database }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;

  r.get('/v2/terms/versions', { preHandler: superOnly }, async () => ({
    agreementVersions: await listVersions(database.db),
  }));

  r.get('/v2/terms/versions/:id', { preHandler: superOnly, schema: { params: versionParams } }, async (request) => {
    const version = await findVersion(database.db, request.params.id);
    if (!version) throw new NotFound(AGREEMENT_MESSAGES.notFound);
    return { agreementVersion: version };
  });

  r.post('/v2/terms/versions', { preHandler: superOnly, schema: { body: publishBody } }, async (request, reply) => {
    const body = sanitizeAgreement(request.body.html);
    if (!hasText(body)) {
      throw new BadRequest('Invalid input: html.', [{ path: 'body.html', message: AGREEMENT_MESSAGES.empty }]);
    }
    const { user } = request;
    const published = await database.transaction(async (tx) => {
      const agreement = await publishAgreement(tx, body);
      await audit(tx, {
        action: 'agreement.publish',
        actorId: user.id,
        impersonatorId: user.impersonator,
        targetType: 'agreement',
        targetId: agreement.id,
        ip: request.ip,
        detail: { length: body.length },
      });
      return agreement;
    });
    reply.code(201);
    return { agreementVersion: { id: published.id, body: published.body } };
  });

  r.get(
    '/v2/terms/versions/:id/acceptances',
    { preHandler: superOnly, schema: { params: versionParams } },
    async (request) => {
      const { id } = request.params;
      if (!(await findVersion(database.db, id))) throw new NotFound(AGREEMENT_MESSAGES.notFound);
      const { total, acceptances } = await acceptancesOf(database.db, id);
      return { agreementAcceptances: { agreementId: id, total, acceptances } };
    },
  );
}
