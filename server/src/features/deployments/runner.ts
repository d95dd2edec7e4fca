/**
 * Runs deployments (decision 0038): the queued tasks in batches of the environment's parallelism, a batch at a
 * time; a batch with a failure ends the rollout and the hosts after it are cancelled unrun. Every task change is
 * written and pushed to root's consoles (output at most every PUSH_EVERY_MS per task). The runner beats on its
 * deployments' rows; a deployment whose beat stops (its process died) is ended by whichever process sees it,
 * its running tasks failed by restart. A cancel asked on any process reaches the runner at its next beat.
 */
import path from 'node:path';
import { DEPLOYMENT_MESSAGES, type Deployment, type Task } from '@tessera/common/deployments';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { databaseFault } from '../../db/faults';
import { audit } from '../audit/record';
import { commandFor, type EnvironmentConfig } from './environments';
import { type CommandRun, progressIn, runCommand, tail } from './process';
import * as repo from './repo';

/** A database that is down is one line with its code (decision 0021: no stack per attempt); anything else in full. */
const faultOrError = (err: unknown) => {
  const fault = databaseFault(err);
  return fault ? { code: fault.code } : { err };
};

export const PUSH_EVERY_MS = 250;
export const BEAT_EVERY_MS = 2000;
/** A deployment not beaten for this long was left by a dead process. */
export const STALE_AFTER_MS = 15_000;

interface Run {
  cancelled: boolean;
  commands: Set<CommandRun>;
  done: Promise<void>;
}

export interface RunnerDeps {
  database: Database;
  environments: Map<string, EnvironmentConfig>;
  releasesDir: string;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Pushes a keyed object to root's consoles. */
  push(payload: Record<string, unknown>): Promise<void>;
  /** Told when a deployment ends, e.g. to change the version a serving environment's browsers are told. */
  onFinished(deployment: Deployment): Promise<void>;
}

export interface ReleaseInfo {
  version: string;
  artifact: string;
  artifactSha256: string;
}

export function createRunner(deps: RunnerDeps) {
  const { database, environments, logger } = deps;
  const runs = new Map<number, Run>();
  let closing = false;

  const pushTasks = (list: Task[]) =>
    list.length === 0 ? Promise.resolve() : deps.push({ tasks: Object.fromEntries(list.map((t) => [t.key, t])) });

  async function pushDeployment(id: number): Promise<Deployment | undefined> {
    const deployment = await repo.findDeployment(database.db, id);
    if (deployment) await deps.push({ deployments: { [id]: deployment } });
    return deployment;
  }

  async function runTask(task: Task, env: EnvironmentConfig, release: ReleaseInfo, run: Run): Promise<Task['status']> {
    const argv = commandFor(env, {
      host: task.host,
      version: release.version,
      artifact: path.join(deps.releasesDir, release.artifact),
      sha256: release.artifactSha256,
    });
    let output = '';
    let progress = 0;
    let dirty = false;
    let flushing: Promise<void> = Promise.resolve();
    await pushTasks([
      await repo.updateTask(database.db, task.key, { status: 'running', startedAt: new Date(), progress }),
    ]);
    const flush = () => {
      if (!dirty) return flushing;
      dirty = false;
      flushing = flushing
        .then(() => repo.updateTask(database.db, task.key, { output, progress }))
        .then((t) => pushTasks([t]))
        .catch((err: unknown) => logger.warn({ ...faultOrError(err), task: task.key }, 'task output not saved'));
      return flushing;
    };
    const timer = setInterval(() => void flush(), PUSH_EVERY_MS);
    let timedOut = false;
    const command = runCommand(argv, (text) => {
      output = tail(output + text);
      progress = progressIn(text) ?? progress;
      dirty = true;
    });
    run.commands.add(command);
    if (run.cancelled || closing) command.stop(env.graceSeconds * 1000);
    const limit = setTimeout(() => {
      timedOut = true;
      command.stop(env.graceSeconds * 1000);
    }, env.timeoutSeconds * 1000);
    const { code, error } = await command.done;
    clearTimeout(limit);
    clearInterval(timer);
    run.commands.delete(command);
    await flush();
    let status: Task['status'] = code === 0 ? 'succeeded' : 'failed';
    if (error) output = tail(`${output}\n${error}\n`);
    if (timedOut) output = tail(`${output}\nTimed out after ${env.timeoutSeconds} s.\n`);
    if (code !== 0 && run.cancelled) {
      status = 'cancelled';
      output = tail(`${output}\n${DEPLOYMENT_MESSAGES.cancelled}\n`);
    } else if (code !== 0 && closing) output = tail(`${output}\n${DEPLOYMENT_MESSAGES.restart}\n`);
    const finished = await repo.updateTask(database.db, task.key, {
      status,
      output,
      exitCode: code,
      finishedAt: new Date(),
      progress: status === 'succeeded' ? 100 : progress,
    });
    await pushTasks([finished]);
    return status;
  }

  async function execute(id: number, env: EnvironmentConfig, release: ReleaseInfo, run: Run): Promise<void> {
    const queued = (await repo.tasksOf(database.db, id)).filter((t) => t.status === 'queued');
    let stopped = false;
    for (let at = 0; at < queued.length && !stopped; at += env.parallelism) {
      if (run.cancelled || closing) break;
      const results = await Promise.all(
        queued.slice(at, at + env.parallelism).map((t) => runTask(t, env, release, run)),
      );
      stopped = results.some((s) => s !== 'succeeded');
    }
    const reason = run.cancelled
      ? DEPLOYMENT_MESSAGES.cancelled
      : closing
        ? DEPLOYMENT_MESSAGES.restart
        : DEPLOYMENT_MESSAGES.skipped;
    await pushTasks(await repo.cancelQueued(database.db, id, reason));
    const all = await repo.tasksOf(database.db, id);
    const status: Deployment['status'] = run.cancelled
      ? 'cancelled'
      : all.every((t) => t.status === 'succeeded')
        ? 'succeeded'
        : 'failed';
    await database.transaction(async (tx) => {
      await repo.finishDeployment(tx, id, status);
      await audit(tx, { action: 'deployment.finish', targetType: 'deployment', targetId: id, detail: { status } });
    });
    const deployment = await pushDeployment(id);
    logger.info({ deploymentId: id, environment: env.name, status }, 'deployment finished');
    if (deployment) await deps.onFinished(deployment);
  }

  /** Ends a deployment whose process died: running tasks failed by restart, queued ones cancelled. */
  async function recover(id: number): Promise<void> {
    const changed = await database.transaction(async (tx) => {
      const deployment = await repo.findDeployment(tx, id, true);
      if (!deployment || deployment.finishedAt !== null) return null;
      const failed = await repo.failRunning(tx, id, DEPLOYMENT_MESSAGES.restart);
      const cancelled = await repo.cancelQueued(tx, id, DEPLOYMENT_MESSAGES.restart);
      await repo.finishDeployment(tx, id, 'failed');
      await audit(tx, {
        action: 'deployment.finish',
        targetType: 'deployment',
        targetId: id,
        detail: { status: 'failed', restart: true },
      });
      return [...failed, ...cancelled];
    });
    if (!changed) return;
    logger.warn({ deploymentId: id }, 'deployment left by a stopped process ended as failed');
    await pushTasks(changed);
    await pushDeployment(id);
  }

  async function tick(): Promise<void> {
    const mine = [...runs.keys()];
    for (const id of await repo.beat(database.db, mine)) {
      const run = runs.get(id);
      if (run && !run.cancelled) cancelLocal(run);
    }
    for (const id of await repo.orphans(database.db, new Date(Date.now() - STALE_AFTER_MS), mine)) await recover(id);
  }

  function cancelLocal(run: Run): void {
    run.cancelled = true;
    for (const command of run.commands) command.stop(graceMsOf(run));
  }
  const grace = new Map<Run, number>();
  const graceMsOf = (run: Run) => grace.get(run) ?? 5000;

  let ticking: Promise<void> = Promise.resolve();
  const beatTimer = setInterval(() => {
    ticking = ticking.then(tick).catch((err: unknown) => logger.warn(faultOrError(err), 'deployment heartbeat failed'));
  }, BEAT_EVERY_MS);
  beatTimer.unref();

  return {
    /** Starts running a deployment's queued tasks in this process. */
    start(id: number, release: ReleaseInfo): void {
      const deployment = { id };
      const run: Run = { cancelled: false, commands: new Set(), done: Promise.resolve() };
      runs.set(id, run);
      run.done = (async () => {
        const row = await repo.findDeployment(database.db, deployment.id);
        const env = row && environments.get(row.deploying.environment);
        if (!row || !env) return;
        grace.set(run, env.graceSeconds * 1000);
        await execute(id, env, release, run);
      })()
        .catch((err: unknown) => logger.error({ err, deploymentId: id }, 'deployment run failed'))
        .finally(() => {
          if (runs.get(id) === run) runs.delete(id);
          grace.delete(run);
        });
    },
    /** Stops a deployment this process runs (the other processes hear of it at their next beat). */
    cancel(id: number): void {
      const run = runs.get(id);
      if (run) cancelLocal(run);
    },
    isRunningHere: (id: number) => runs.has(id),
    /** Resolves when the deployment's run in this process has ended (tests). */
    async settle(id: number): Promise<void> {
      await runs.get(id)?.done;
    },
    /** Ends deployments that dead processes left (at start, and at every beat for those that go stale). */
    async recoverStale(olderThanMs = STALE_AFTER_MS): Promise<void> {
      for (const id of await repo.orphans(database.db, new Date(Date.now() - olderThanMs), [...runs.keys()])) {
        await recover(id);
      }
    },
    /** Server shutdown: running commands are stopped and their tasks end failed by restart. */
    async close(): Promise<void> {
      closing = true;
      clearInterval(beatTimer);
      for (const run of runs.values()) for (const command of run.commands) command.stop(graceMsOf(run));
      await Promise.all([...runs.values()].map((r) => r.done));
      await ticking;
    },
  };
}

export type Runner = ReturnType<typeof createRunner>;
