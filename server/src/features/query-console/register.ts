/** The read-only query console (issue 20 item 2) with the app. */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { clusterTargets } from '../../db/clusters';
import { registerQueryRoutes } from './routes';
import { createQueryConsole } from './service';

export function registerQueryConsole(
  app: FastifyInstance,
  deps: { database: Database; clusters: Record<string, string>; timeoutMs: number },
): void {
  const console = createQueryConsole({
    database: deps.database,
    targets: clusterTargets(deps.database, deps.clusters),
    timeoutMs: deps.timeoutMs,
  });
  registerQueryRoutes(app, { database: deps.database, console });
}
