/**
 * Real rollouts (issue 21): a release built from this repository's HEAD deployed to two local host folders (files
 * unpacked, `current` switched) with tasks pushed live and the told version changed; a failing host stopping the
 * rollout, then a retry; cancel (SIGTERM, then SIGKILL); the environment's lock; a restart during a task.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEPLOYMENT_MESSAGES, DEPLOYMENTS_CHANNEL, type Task } from '@tessera/common/deployments';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import { deployments, tasks } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';
import { isPush, isReply, openSocket } from '../../test/socket-client';
import { insertDeployment } from './repo';
import { testEnvironments, until } from './test-environments';

const HEAD = execFileSync('git', ['-C', REPO_ROOT, 'rev-parse', 'HEAD']).toString().trim();
const envs = testEnvironments();
const releasesDir = mkdtempSync(path.join(tmpdir(), 'tessera-releases-'));
const env = { ENVIRONMENTS: envs.setting, RELEASES_DIR: releasesDir };
let t: TestApp;
const api = consoleClient(() => t.app);
let root: string;
let rootEmail: string;
let base: string;
let release: { id: number; version: string };

beforeAll(async () => {
  t = await buildTestApp({ env });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  rootEmail = (await makeUser(t.database, 'root')).email;
  root = await signIn(t.app, rootEmail);
  const version = `2.0.0-t${randomUUID().slice(0, 8)}`;
  const cut = await api.post('/v2/releases', root, { version, commit: HEAD, notes: 'HEAD' });
  const id = Number(Object.keys(cut.json().releases)[0]);
  expect((await api.post(`/v2/releases/${id}/publish`, root, {})).statusCode).toBe(200);
  release = { id, version };
});
afterAll(async () => {
  await t.app.close();
});

async function deploy(environment: string, app = t.app, cookie = root) {
  const res = await consoleClient(() => app).post('/v2/deployments', cookie, { releaseId: release.id, environment });
  expect(res.statusCode, res.body).toBe(201);
  return Number(Object.keys(res.json().deployments)[0]);
}
const tasksOf = async (id: number, app = t.app, cookie = root) =>
  Object.values((await consoleClient(() => app).get(`/v2/tasks?deploymentId=${id}`, cookie)).json().tasks) as Task[];
const versionAsked = async () => ((await (await fetch(`${base}/v2/version`)).json()) as { version: string }).version;
const deploymentOf = async (id: number) => (await api.get(`/v2/deployments/${id}`, root)).json().deployments[id];

describe('a real deployment to two local hosts', () => {
  it('unpacks the release into each host, switches `current`, pushes tasks live and changes the told version', async () => {
    const watcher = await openSocket(base, { cookie: root });
    watcher.send(['subscribe', DEPLOYMENTS_CHANNEL]);
    await watcher.next(isReply('subscribed', DEPLOYMENTS_CHANNEL));
    const page = await openSocket(base); // any open page, signed in or not, hears the version
    const first = ((await page.next(isPush('version')))[1] as { version: string }).version;
    expect(await versionAsked()).toBe(first);

    const id = await deploy(envs.names.real);
    await t.app.deployments.settle(id);
    expect(await deploymentOf(id)).toMatchObject({
      status: 'succeeded',
      version: release.version,
      deploying: { environment: envs.names.real, hosts: envs.environments[0]!.hosts },
    });
    const done = await tasksOf(id);
    expect(done.map((task) => [task.status, task.progress])).toEqual([
      ['succeeded', 100],
      ['succeeded', 100],
    ]);
    for (const host of envs.environments[0]!.hosts) {
      expect(readlinkSync(path.join(host, 'current'))).toBe(path.join('releases', release.version));
      const unpacked = path.join(host, 'current');
      expect(readFileSync(path.join(unpacked, 'package.json'), 'utf8')).toBe(
        execFileSync('git', ['-C', REPO_ROOT, 'show', `${HEAD}:package.json`]).toString(),
      );
      expect(existsSync(path.join(unpacked, 'server/src/app.ts'))).toBe(true);
    }
    expect(done[0]!.output).toContain('checksum ok');
    expect(done[0]!.key).toBe(`${id}:${envs.environments[0]!.hosts[0]}:deploy`);

    // Root's console saw the tasks run and finish, and every page was told the new version.
    await watcher.next(
      (m) =>
        m[0] === 'push' &&
        Object.values((m[1].tasks ?? {}) as Record<string, Task>).some((x) => x.status === 'running'),
    );
    await watcher.next(
      (m) =>
        m[0] === 'push' &&
        (m[1].deployments as Record<string, { status: string }> | undefined)?.[id]?.status === 'succeeded',
    );
    const next = (
      (
        await page.next((m) => m[0] === 'push' && 'version' in m[1] && (m[1] as { version: string }).version !== first)
      )[1] as { version: string }
    ).version;
    expect(next).toContain(release.version);
    expect(t.app.hub.version).toBe(next);
    // Programs asking /v2/version are told what the pages are told.
    expect(await versionAsked()).toBe(next);
    watcher.ws.close();
    page.ws.close();
  });

  it('refuses the deployment socket to super', async () => {
    const cookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
    const socket = await openSocket(base, { cookie });
    socket.send(['subscribe', DEPLOYMENTS_CHANNEL]);
    await socket.next(isReply('refused', DEPLOYMENTS_CHANNEL));
    socket.ws.close();
  });
});

describe('a failing host', () => {
  it('stops the rollout: later hosts are not started; a retry runs the failed and skipped hosts', async () => {
    const id = await deploy(envs.names.fail);
    await t.app.deployments.settle(id);
    expect((await deploymentOf(id)).status).toBe('failed');
    const failed = await tasksOf(id);
    expect(failed.map((task) => task.status)).toEqual(['succeeded', 'failed', 'cancelled']);
    expect(failed[1]!.exitCode).not.toBe(0);
    expect(failed[2]!.output).toBe(DEPLOYMENT_MESSAGES.skipped);
    expect(failed[2]!.startedAt).toBeNull();

    rmSync(path.join(envs.broken, 'releases'));
    const retry = await api.post(`/v2/deployments/${id}/retry`, root, {});
    expect(retry.statusCode).toBe(200);
    await t.app.deployments.settle(id);
    expect((await deploymentOf(id)).status).toBe('succeeded');
    expect((await tasksOf(id)).map((task) => task.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(readlinkSync(path.join(envs.broken, 'current'))).toBe(path.join('releases', release.version));
    const again = await api.post(`/v2/deployments/${id}/retry`, root, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(DEPLOYMENT_MESSAGES.nothingToRetry);
  });
});

describe('cancel and the lock', () => {
  it('a second deployment to a busy environment is refused; cancel sends SIGTERM then SIGKILL', async () => {
    const id = await deploy(envs.names.slow);
    const running = await until(
      async () => (await tasksOf(id)).find((x) => x.status === 'running' && x.output.includes('working on')),
      'a running task',
    );
    expect(running.progress).toBe(10);

    const second = await api.post('/v2/deployments', root, { releaseId: release.id, environment: envs.names.slow });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe(DEPLOYMENT_MESSAGES.locked);
    expect((await api.del(`/v2/deployments/${id}`, root)).statusCode).toBe(409);
    expect((await api.post(`/v2/deployments/${id}/retry`, root, {})).statusCode).toBe(409);

    expect((await api.post(`/v2/deployments/${id}/cancel`, root, {})).statusCode).toBe(200);
    await t.app.deployments.settle(id);
    expect((await deploymentOf(id)).status).toBe('cancelled');
    const ended = await tasksOf(id);
    expect(ended.map((x) => x.status)).toEqual(['cancelled', 'cancelled']);
    // It ignored SIGTERM, so the grace period ran out and SIGKILL ended it.
    expect(ended[0]!.output).toContain('got SIGTERM, ignoring');
    expect(ended[0]!.exitCode).toBeNull();
    expect((await api.post(`/v2/deployments/${id}/cancel`, root, {})).statusCode).toBe(409);

    // The lock is free again: another deployment starts, and is cancelled before its first host.
    const next = await deploy(envs.names.slow);
    await api.post(`/v2/deployments/${next}/cancel`, root, {});
    await t.app.deployments.settle(next);
    expect((await deploymentOf(next)).status).toBe('cancelled');
    expect((await api.del(`/v2/deployments/${id},${next}`, root)).statusCode).toBe(200);
    expect((await api.get(`/v2/deployments/${id}`, root)).statusCode).toBe(404);
  });
});

describe('a restart during a task', () => {
  it('a server stopping mid-task leaves the task failed by restart, never running', async () => {
    const other = await buildTestApp({ env });
    const cookie = await signIn(other.app, rootEmail);
    const id = await deploy(envs.names.restart, other.app, cookie);
    await until(
      async () => (await tasksOf(id, other.app, cookie)).find((x) => x.status === 'running'),
      'a running task',
    );
    await other.app.close();
    const [task] = await t.database.db.select().from(tasks).where(eq(tasks.deploymentId, id));
    expect(task).toMatchObject({ status: 'failed' });
    expect(task!.output).toContain(DEPLOYMENT_MESSAGES.restart);
    expect((await deploymentOf(id)).status).toBe('failed');
  });

  it('a task a dead process left running is failed when a server starts', async () => {
    const id = await insertDeployment(t.database.db, {
      releaseId: release.id,
      environment: envs.names.restart,
      hosts: envs.environments[3]!.hosts,
      createdBy: (await makeUser(t.database, 'root')).id,
    });
    await t.database.db
      .update(tasks)
      .set({ status: 'running', startedAt: new Date() })
      .where(eq(tasks.deploymentId, id));
    await t.database.db
      .update(deployments)
      .set({ heartbeatAt: new Date(Date.now() - 3600_000) })
      .where(eq(deployments.id, id));
    const started = await buildTestApp({ env });
    await started.app.close();
    expect((await deploymentOf(id)).status).toBe('failed');
    const [task] = await tasksOf(id);
    expect(task).toMatchObject({ status: 'failed' });
    expect(task!.output).toContain(DEPLOYMENT_MESSAGES.restart);
  });
});
