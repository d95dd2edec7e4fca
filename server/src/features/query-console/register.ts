/** The read-only query console (issue 20 item 2) with the app. */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { clusterTargets } from '../../db/clusters';
import { BOUNDARY_MESSAGES } from './boundary';
import { registerQueryRoutes } from './routes';
import { READINESS_SQL } from './sandbox';
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
  // Migration 0029 skips the console's role where the server's database user may not create it (decision 0048):
  // say so at start, as the console will refuse to run on `main` until an administrator creates it.
  app.addHook('onReady', async () => {
    try {
      const [row] = await deps.database.query<{ state: string }>(`select (${READINESS_SQL}) as state`);
      if (row?.state !== 'ready') app.log.warn(BOUNDARY_MESSAGES.roleUnusable('main', row?.state ?? 'missing'));
    } catch (err) {
      app.log.warn({ err }, 'The query console could not check its database role on main.');
    }
  });
}
