import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { databaseFault } from '../../db/faults';
import { Unavailable } from '../../http/errors';

interface SystemDeps {
  database: Database;
  /** The version told to browsers now (it takes in deployments to the serving environment, issue 21). */
  version: () => string;
}

export function registerSystemRoutes(app: FastifyInstance, deps: SystemDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/healthz',
    { schema: { response: { 200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }) } } },
    async (request) => {
      try {
        await deps.database.ping();
      } catch (err) {
        if (!databaseFault(err)) request.log.error({ err }, 'health check: database unreachable');
        throw new Unavailable('The database is unreachable.', err);
      }
      return { status: 'ok' as const, database: deps.database.engine };
    },
  );

  r.get('/v2/version', { schema: { response: { 200: z.object({ version: z.string() }) } } }, async () => ({
    version: deps.version(),
  }));
}
