/** Serves stored pictures to signed-in users. Names are content hashes, so a name is only known to those shown it. */
import { RESOURCE_PATHS } from '@tessera/common/resources';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { requireRank } from '../../http/auth';
import { NotFound } from '../../http/errors';
import { NOT_FOUND } from '../console/access';
import { IMAGE_NAME, readImage } from './store';

export function registerImageRoutes(app: FastifyInstance, deps: { database: Database }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      RESOURCE_PATHS.image(':name'),
      { preHandler: requireRank('user'), schema: { params: z.object({ name: z.string().max(60) }) } },
      async (request, reply) => {
        const { name } = request.params;
        const found = IMAGE_NAME.test(name) ? await readImage(deps.database.db, name) : null;
        if (!found) throw new NotFound(NOT_FOUND.image);
        return reply
          .type(found.contentType)
          .header('cache-control', 'private, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'")
          .send(found.bytes);
      },
    );
}
