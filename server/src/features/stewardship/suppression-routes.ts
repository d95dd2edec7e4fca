/**
 * The suppression list (issue 22 item 2), super+: search by value (normalized and hashed as stored before the
 * search), add one, lift one with a reason (audited), import a list. Replies are keyed: `{ suppressions: { id: … } }`.
 */
import type { Readable } from 'node:stream';
import { STEWARDSHIP_MESSAGES } from '@tessera/common/stewardship';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { BadRequest, Conflict, NotFound } from '../../http/errors';
import { audit } from '../audit/record';
import { importSuppressions } from './import';
import { searchedKeys, storedKey } from './keys';
import { addSuppression, liftSuppression, searchSuppressions, view } from './repo';
import { liftBody, suppressionBody, suppressionListQuery, suppressionParams } from './schemas';
import { staffOnly } from './staff';

const keyed = <T extends { id: number }>(items: T[]) => Object.fromEntries(items.map((s) => [String(s.id), s]));

export function registerSuppressionRoutes(app: FastifyInstance, deps: { database: Database }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;

  r.get(
    '/v2/suppressions',
    { preHandler: staffOnly, schema: { querystring: suppressionListQuery } },
    async (request) => {
      const { key, before } = request.query;
      const found = await searchSuppressions(database.db, key ? searchedKeys(key) : null, before);
      return { suppressions: keyed(found) };
    },
  );

  r.post('/v2/suppressions', { preHandler: staffOnly, schema: { body: suppressionBody } }, async (request, reply) => {
    const key = request.body!;
    const { user } = request;
    const added = await database.transaction(async (tx) => {
      const row = await addSuppression(tx, storedKey(key), { source: 'staff', createdBy: user.id });
      if (!row) throw new Conflict(STEWARDSHIP_MESSAGES.exists);
      await audit(tx, {
        action: 'suppression.add',
        actorId: user.id,
        impersonatorId: user.impersonator,
        targetType: 'suppression',
        targetId: row.id,
        ip: request.ip,
        detail: { kind: row.kind },
      });
      return row;
    });
    reply.code(201);
    return { suppressions: keyed([added]) };
  });

  r.delete(
    '/v2/suppressions/:id',
    { preHandler: staffOnly, schema: { params: suppressionParams, body: liftBody } },
    async (request) => {
      const { user } = request;
      const { id } = request.params;
      const lifted = await database.transaction(async (tx) => {
        const row = await liftSuppression(tx, id);
        if (!row) throw new NotFound(STEWARDSHIP_MESSAGES.notFound);
        await audit(tx, {
          action: 'suppression.lift',
          actorId: user.id,
          impersonatorId: user.impersonator,
          targetType: 'suppression',
          targetId: id,
          ip: request.ip,
          detail: { kind: row.kind, source: row.source, reason: request.body.reason },
        });
        return row;
      });
      return { suppressions: { [String(id)]: { ...view(lifted), deletedAt: new Date().toISOString() } } };
    },
  );

  // The list is read as it arrives, never buffered whole.
  app.register(async (scope) => {
    scope.addContentTypeParser(['text/csv', 'text/plain', 'application/csv'], (_request, payload, done) =>
      done(null, payload),
    );
    scope.post('/v2/suppressions/import', { preHandler: staffOnly }, async (request) => {
      const body = request.body as Readable | undefined;
      if (!body || typeof body.pipe !== 'function') {
        throw new BadRequest(STEWARDSHIP_MESSAGES.importBody, [
          { path: 'body', message: STEWARDSHIP_MESSAGES.importBody },
        ]);
      }
      const { user } = request;
      const report = await database.transaction(async (tx) => {
        let result: Awaited<ReturnType<typeof importSuppressions>>;
        try {
          result = await importSuppressions(tx, body, user.id);
        } catch (error) {
          if ((error as { code?: string }).code?.startsWith('CSV_')) {
            // The parser's own text may quote a value: only the line is named.
            const line = (error as { lines?: number }).lines;
            throw new BadRequest(STEWARDSHIP_MESSAGES.importUnreadable(line ?? 0));
          }
          throw error;
        }
        await audit(tx, {
          action: 'suppression.import',
          actorId: user.id,
          impersonatorId: user.impersonator,
          targetType: 'suppression',
          ip: request.ip,
          detail: { ...result, badLineNumbers: undefined },
        });
        return result;
      });
      return { suppressionImport: report };
    });
  });
}
