/**
 * Environments, deployments and tasks with the app (decision 0038). At start, deployments that a stopped process
 * left unfinished are ended (failed by restart), and the version told to browsers takes in the last deployment to
 * the environment that serves the console; when another such deployment succeeds, every open page is told the new
 * version and reloads (spec §1).
 */
import { DEPLOYMENTS_CHANNEL, DEPLOYMENTS_ROLE } from '@tessera/common/deployments';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { databaseFault } from '../../db/faults';
import type { Hub } from '../../socket/hub';
import { parseEnvironments } from './environments';
import { lastSucceeded } from './repo';
import { registerDeploymentRoutes } from './routes';
import { createRunner, type Runner } from './runner';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tests wait for a deployment's run rather than for time. */
    deployments: Runner;
  }
}

/** The version browsers are told: the build's, plus the release last deployed to the serving environment. */
export function toldVersion(base: string, last: { id: number; version: string } | null): string {
  return last ? `${base} release ${last.version} deployment ${last.id}` : base;
}

export async function registerDeployments(
  app: FastifyInstance,
  deps: { database: Database; hub: Hub; config: Config; repoDir: string; baseVersion: string },
): Promise<void> {
  const { database, hub, config } = deps;
  const list = parseEnvironments(config.environments, config.dataDir, deps.repoDir);
  const environments = new Map(list.map((e) => [e.name, e]));
  const serving = list.find((e) => e.serves) ?? null;
  const push = (payload: Record<string, unknown>) =>
    hub.publish(DEPLOYMENTS_CHANNEL, payload, { minRank: DEPLOYMENTS_ROLE }).catch(() => undefined);

  const runner = createRunner({
    database,
    environments,
    releasesDir: config.releasesDir,
    logger: app.log,
    push,
    async onFinished(deployment) {
      if (!serving || deployment.deploying.environment !== serving.name || deployment.status !== 'succeeded') return;
      const version = toldVersion(deps.baseVersion, { id: deployment.id, version: deployment.version });
      await hub.announceVersion(version).catch(() => undefined);
    },
  });
  app.decorate('deployments', runner);
  registerDeploymentRoutes(app, { database, environments, runner, push });
  // A database that cannot answer at start must not stop the server from starting (it answers 503 until it can);
  // the heartbeat's check of stale deployments runs again every few seconds anyway.
  try {
    await runner.recoverStale();
    if (serving) hub.setVersion(toldVersion(deps.baseVersion, await lastSucceeded(database.db, serving.name)));
  } catch (err) {
    const fault = databaseFault(err);
    app.log.warn(fault ? { code: fault.code } : { err }, 'deployments not recovered at start');
  }
  app.addHook('onClose', () => runner.close());
}
