/** GET /v2/clusters (root): every node's health, read now. The page then follows the socket channel. */
import type { ClusterNode } from '@tessera/common/clusters';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireRank } from '../../http/auth';
import { clustersReply } from './schemas';

export function registerClusterRoutes(
  app: FastifyInstance,
  deps: { collect: () => Promise<Record<string, ClusterNode>> },
): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/v2/clusters',
      { preHandler: requireRank('root'), schema: { response: { 200: clustersReply } } },
      async () => ({
        clusters: await deps.collect(),
      }),
    );
}
