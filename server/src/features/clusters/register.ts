/** Clusters (issue 20 item 1): the route, and the process's one poller, stopped when the app closes. */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { clusterTargets } from '../../db/clusters';
import type { Hub } from '../../socket/hub';
import { type ClusterPoller, createClusterPoller } from './poller';
import { registerClusterRoutes } from './routes';
import { collectAll } from './stats';

declare module 'fastify' {
  interface FastifyInstance {
    clusterPoller: ClusterPoller;
  }
}

export function registerClusters(
  app: FastifyInstance,
  deps: { database: Database; hub: Hub; clusters: Record<string, string>; pollMs?: number },
): void {
  const targets = clusterTargets(deps.database, deps.clusters);
  const collect = () => collectAll(targets);
  const poller = createClusterPoller({ hub: deps.hub, collect, log: app.log, intervalMs: deps.pollMs });
  app.decorate('clusterPoller', poller);
  app.addHook('onClose', async () => poller.stop());
  registerClusterRoutes(app, { collect });
}
