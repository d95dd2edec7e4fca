/**
 * /v2/environments, /v2/deployments and /v2/tasks (issue 21, decision 0038), root only. A deployment sends a
 * published release to some or all of an environment's hosts; one unfinished deployment per environment (the
 * database's lock: 409). Cancel stops it; retry runs its failed and cancelled hosts again; only finished ones are
 * deleted. Roll back = deploy the previous release.
 */
import { DEPLOYMENT_MESSAGES, DEPLOYMENTS_ROLE, isFinished, RELEASE_MESSAGES } from '@tessera/common/deployments';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../db/client';
import { releases } from '../../db/schema';
import { requireRank } from '../../http/auth';
import { BadRequest, Conflict, NotFound } from '../../http/errors';
import { deleted, keyed } from '../../http/keyed';
import { type AuditAction, actorOf, audit } from '../audit/record';
import { type EnvironmentConfig, publicEnvironment } from './environments';
import * as repo from './repo';
import type { Runner } from './runner';
import {
  deploymentBody,
  deploymentListParams,
  deploymentParams,
  deploymentReply,
  deploymentsDeletedReply,
  deploymentsReply,
  environmentsReply,
  tasksQuery,
  tasksReply,
} from './schemas';

export interface DeploymentRouteDeps {
  database: Database;
  environments: Map<string, EnvironmentConfig>;
  runner: Runner;
  push(payload: Record<string, unknown>): Promise<void>;
}

const guard = { preHandler: requireRank(DEPLOYMENTS_ROLE) };

function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; depth++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Runs a write that takes the environment's lock; a lock held by another deployment is a 409. */
async function locking<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict(DEPLOYMENT_MESSAGES.locked);
    throw error;
  }
}

const field = (name: string, message: string) => new BadRequest(message, [{ path: `body.${name}`, message }]);

export function registerDeploymentRoutes(app: FastifyInstance, deps: DeploymentRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, environments, runner, push } = deps;

  const record = (tx: Executor, request: FastifyRequest, action: AuditAction, id: number, detail = {}) =>
    audit(tx, {
      action,
      ...actorOf(request),
      targetType: 'deployment',
      targetId: id,
      detail,
    });

  async function reply(id: number) {
    const deployment = await repo.findDeployment(database.db, id);
    if (!deployment) throw new NotFound(DEPLOYMENT_MESSAGES.notFound);
    const tasks = await repo.tasksOf(database.db, id);
    const payload = { deployments: keyed([deployment]), tasks: Object.fromEntries(tasks.map((t) => [t.key, t])) };
    await push(payload);
    return payload;
  }

  async function releaseOf(id: number) {
    const [row] = await database.db.select().from(releases).where(eq(releases.id, id));
    return row;
  }

  r.get('/v2/environments', { ...guard, schema: { response: { 200: environmentsReply } } }, async () => ({
    environments: keyed([...environments.values()].map(publicEnvironment)),
  }));

  r.get('/v2/deployments', { ...guard, schema: { response: { 200: deploymentsReply } } }, async () => ({
    deployments: keyed(await repo.listDeployments(database.db)),
  }));

  r.get(
    '/v2/deployments/:id',
    { ...guard, schema: { params: deploymentListParams, response: { 200: deploymentReply } } },
    async (request) => {
      const ids = request.params.id;
      const found = await repo.findDeployments(database.db, ids);
      if (found.length !== ids.length) throw new NotFound(DEPLOYMENT_MESSAGES.notFound);
      const tasks = (await Promise.all(ids.map((id) => repo.tasksOf(database.db, id)))).flat();
      return { deployments: keyed(found), tasks: Object.fromEntries(tasks.map((t) => [t.key, t])) };
    },
  );

  r.get(
    '/v2/tasks',
    { ...guard, schema: { querystring: tasksQuery, response: { 200: tasksReply } } },
    async (request) => {
      const { deploymentId } = request.query;
      if (!(await repo.findDeployment(database.db, deploymentId))) throw new NotFound(DEPLOYMENT_MESSAGES.notFound);
      const tasks = await repo.tasksOf(database.db, deploymentId);
      return { tasks: Object.fromEntries(tasks.map((t) => [t.key, t])) };
    },
  );

  r.post(
    '/v2/deployments',
    { ...guard, schema: { body: deploymentBody, response: { 201: deploymentReply } } },
    async (request, response) => {
      const { releaseId, environment: name } = request.body;
      const release = await releaseOf(releaseId);
      if (release?.status !== 'published') throw field('releaseId', DEPLOYMENT_MESSAGES.release);
      const environment = environments.get(name);
      if (!environment) throw field('environment', DEPLOYMENT_MESSAGES.environment);
      const hosts = request.body.hosts ?? environment.hosts;
      if (hosts.some((h) => !environment.hosts.includes(h))) throw field('hosts', DEPLOYMENT_MESSAGES.hosts);
      // The environment's order, whatever order the hosts were chosen in.
      const ordered = environment.hosts.filter((h) => hosts.includes(h));
      const id = await locking(() =>
        database.transaction(async (tx) => {
          const created = await repo.insertDeployment(tx, {
            releaseId,
            environment: name,
            hosts: ordered,
            createdBy: request.user.id,
          });
          await record(tx, request, 'deployment.create', created, {
            releaseId,
            version: release.version,
            environment: name,
            hosts: ordered.length,
          });
          return created;
        }),
      );
      runner.start(id, release);
      return response.code(201).send(await reply(id));
    },
  );

  r.post(
    '/v2/deployments/:id/cancel',
    { ...guard, schema: { params: deploymentParams, response: { 200: deploymentReply } } },
    async (request) => {
      const { id } = request.params;
      await database.transaction(async (tx) => {
        const deployment = await repo.findDeployment(tx, id, true);
        if (!deployment) throw new NotFound(DEPLOYMENT_MESSAGES.notFound);
        if (isFinished(deployment.status) || deployment.finishedAt) throw new Conflict(DEPLOYMENT_MESSAGES.notRunning);
        await repo.requestCancel(tx, id);
        await record(tx, request, 'deployment.cancel', id);
      });
      runner.cancel(id);
      return reply(id);
    },
  );

  r.post(
    '/v2/deployments/:id/retry',
    { ...guard, schema: { params: deploymentParams, response: { 200: deploymentReply } } },
    async (request) => {
      const { id } = request.params;
      const deployment = await repo.findDeployment(database.db, id);
      if (!deployment) throw new NotFound(DEPLOYMENT_MESSAGES.notFound);
      const release = await releaseOf(deployment.releaseId);
      if (!release) throw new NotFound(RELEASE_MESSAGES.notFound);
      await locking(() =>
        database.transaction(async (tx) => {
          const current = await repo.findDeployment(tx, id, true);
          if (!current) throw new NotFound(DEPLOYMENT_MESSAGES.notFound);
          if (!current.finishedAt) throw new Conflict(DEPLOYMENT_MESSAGES.retryRunning);
          const hosts = await repo.reopenForRetry(tx, id);
          if (hosts === 0) throw new Conflict(DEPLOYMENT_MESSAGES.nothingToRetry);
          await record(tx, request, 'deployment.retry', id, { hosts });
        }),
      );
      runner.start(id, release);
      return reply(id);
    },
  );

  r.delete(
    '/v2/deployments/:id',
    { ...guard, schema: { params: deploymentListParams, response: { 200: deploymentsDeletedReply } } },
    async (request) => {
      const ids = request.params.id;
      await database.transaction(async (tx) => {
        const found = await repo.findDeployments(tx, ids, true);
        if (found.length !== ids.length) throw new NotFound(DEPLOYMENT_MESSAGES.notFound);
        if (found.some((d) => !d.finishedAt)) throw new Conflict(DEPLOYMENT_MESSAGES.notFinished);
        await repo.deleteDeployments(tx, ids);
        for (const d of found)
          await record(tx, request, 'deployment.delete', d.id, { environment: d.deploying.environment });
      });
      const deployments = Object.assign({}, ...ids.map((id) => deleted(id)));
      await push({ deployments });
      return { deployments };
    },
  );
}
