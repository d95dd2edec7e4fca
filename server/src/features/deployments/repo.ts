/** Deployments' and tasks' SQL. The partial unique index on unfinished deployments is the environment's lock. */
import { DEPLOY_STEP, type Deployment, type Task, taskKey } from '@tessera/common/deployments';
import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { deployments, releases, tasks } from '../../db/schema';

type DeploymentRow = typeof deployments.$inferSelect;
type TaskRow = typeof tasks.$inferSelect;

export function toDeployment(row: DeploymentRow, version: string): Deployment {
  return {
    id: row.id,
    releaseId: row.releaseId,
    version,
    deploying: { environment: row.environment, hosts: row.hosts },
    status: row.status as Deployment['status'],
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export function toTask(row: TaskRow): Task {
  return {
    key: row.key,
    deploymentId: row.deploymentId,
    host: row.host,
    step: row.step,
    position: row.position,
    status: row.status as Task['status'],
    progress: row.progress,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    exitCode: row.exitCode,
    output: row.output,
  };
}

const withVersion = { deployment: deployments, version: releases.version };

export async function listDeployments(db: Executor): Promise<Deployment[]> {
  const rows = await db
    .select(withVersion)
    .from(deployments)
    .innerJoin(releases, eq(releases.id, deployments.releaseId))
    .orderBy(desc(deployments.id))
    .limit(1000);
  return rows.map((r) => toDeployment(r.deployment, r.version));
}

export async function findDeployments(db: Executor, ids: number[], lock = false): Promise<Deployment[]> {
  const query = db
    .select(withVersion)
    .from(deployments)
    .innerJoin(releases, eq(releases.id, deployments.releaseId))
    .where(inArray(deployments.id, ids));
  const rows = lock ? await query.for('update', { of: deployments }) : await query;
  return rows.map((r) => toDeployment(r.deployment, r.version));
}

export async function findDeployment(db: Executor, id: number, lock = false): Promise<Deployment | undefined> {
  return (await findDeployments(db, [id], lock))[0];
}

/** Inserts the deployment and a queued task per host; a second unfinished one for the environment breaks the lock. */
export async function insertDeployment(
  db: Executor,
  values: { releaseId: number; environment: string; hosts: string[]; createdBy: number },
): Promise<number> {
  const [row] = await db.insert(deployments).values(values).returning({ id: deployments.id });
  const id = row!.id;
  await db.insert(tasks).values(
    values.hosts.map((host, position) => ({
      key: taskKey(id, host),
      deploymentId: id,
      host,
      step: DEPLOY_STEP,
      position,
    })),
  );
  return id;
}

export async function tasksOf(db: Executor, deploymentId: number): Promise<Task[]> {
  const rows = await db.select().from(tasks).where(eq(tasks.deploymentId, deploymentId)).orderBy(asc(tasks.position));
  return rows.map(toTask);
}

export async function updateTask(db: Executor, key: string, values: Partial<typeof tasks.$inferInsert>): Promise<Task> {
  const [row] = await db.update(tasks).set(values).where(eq(tasks.key, key)).returning();
  return toTask(row!);
}

/** Ends every queued task of a deployment as cancelled, with a reason in its output. */
export async function cancelQueued(db: Executor, deploymentId: number, reason: string): Promise<Task[]> {
  const rows = await db
    .update(tasks)
    .set({ status: 'cancelled', output: reason, finishedAt: new Date() })
    .where(and(eq(tasks.deploymentId, deploymentId), eq(tasks.status, 'queued')))
    .returning();
  return rows.map(toTask);
}

/** Puts failed and cancelled tasks back in the queue and reopens the deployment (taking the lock again). */
export async function reopenForRetry(db: Executor, deploymentId: number): Promise<number> {
  const rows = await db
    .update(tasks)
    .set({ status: 'queued', progress: 0, startedAt: null, finishedAt: null, exitCode: null, output: '' })
    .where(and(eq(tasks.deploymentId, deploymentId), inArray(tasks.status, ['failed', 'cancelled'])))
    .returning({ key: tasks.key });
  if (rows.length === 0) return 0;
  await db
    .update(deployments)
    .set({ status: 'running', finishedAt: null, cancelRequestedAt: null, heartbeatAt: new Date() })
    .where(eq(deployments.id, deploymentId));
  return rows.length;
}

export async function finishDeployment(db: Executor, id: number, status: Deployment['status']): Promise<void> {
  await db.update(deployments).set({ status, finishedAt: new Date() }).where(eq(deployments.id, id));
}

export async function requestCancel(db: Executor, id: number): Promise<void> {
  await db.update(deployments).set({ cancelRequestedAt: new Date() }).where(eq(deployments.id, id));
}

export async function deleteDeployments(db: Executor, ids: number[]): Promise<void> {
  await db.delete(deployments).where(inArray(deployments.id, ids));
}

/** Beats for the deployments this process runs; answers those whose cancel was asked for. */
export async function beat(db: Executor, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(deployments)
    .set({ heartbeatAt: new Date() })
    .where(and(inArray(deployments.id, ids), isNull(deployments.finishedAt)))
    .returning({ id: deployments.id, cancel: deployments.cancelRequestedAt });
  return rows.filter((r) => r.cancel !== null).map((r) => r.id);
}

/** Unfinished deployments whose runner has not beaten since `before`: their process died. */
export async function orphans(db: Executor, before: Date, except: number[]): Promise<number[]> {
  const rows = await db
    .select({ id: deployments.id })
    .from(deployments)
    .where(and(isNull(deployments.finishedAt), lt(deployments.heartbeatAt, before)));
  return rows.map((r) => r.id).filter((id) => !except.includes(id));
}

/** Running tasks of a deployment whose process died become failed, with why appended to their output. */
export async function failRunning(db: Executor, deploymentId: number, reason: string): Promise<Task[]> {
  const rows = await db
    .update(tasks)
    .set({ status: 'failed', finishedAt: new Date(), output: sql`right(${tasks.output} || ${`\n${reason}\n`}, 65536)` })
    .where(and(eq(tasks.deploymentId, deploymentId), eq(tasks.status, 'running')))
    .returning();
  return rows.map(toTask);
}

/** The last deployment that succeeded to an environment, with its release's version. */
export async function lastSucceeded(
  db: Executor,
  environment: string,
): Promise<{ id: number; version: string } | null> {
  const [row] = await db
    .select({ id: deployments.id, version: releases.version })
    .from(deployments)
    .innerJoin(releases, eq(releases.id, deployments.releaseId))
    .where(and(eq(deployments.environment, environment), eq(deployments.status, 'succeeded')))
    .orderBy(desc(deployments.finishedAt), desc(deployments.id))
    .limit(1);
  return row ?? null;
}
