/**
 * /v2/environments, /v2/deployments and /v2/tasks by outcome and rank (issue 21): bad bodies are 400s naming the
 * field, unknown ids 404, admin and super 403, signed out 401. Every action is audited. (Real rollouts, cancel,
 * retry, the lock and restarts: rollout.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEPLOYMENT_MESSAGES } from '@tessera/common/deployments';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import { auditLog } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';
import { testEnvironments } from './test-environments';

const HEAD = execFileSync('git', ['-C', REPO_ROOT, 'rev-parse', 'HEAD']).toString().trim();
const envs = testEnvironments();
let t: TestApp;
const api = consoleClient(() => t.app);
let root: string;
let published: number;
let draft: number;

async function cut(publish: boolean): Promise<number> {
  const res = await api.post('/v2/releases', root, { version: `3.0.0-t${randomUUID().slice(0, 8)}`, commit: HEAD });
  const id = Number(Object.keys(res.json().releases)[0]);
  if (publish) await api.post(`/v2/releases/${id}/publish`, root, {});
  return id;
}

beforeAll(async () => {
  const releasesDir = mkdtempSync(path.join(tmpdir(), 'tessera-releases-'));
  t = await buildTestApp({ env: { ENVIRONMENTS: envs.setting, RELEASES_DIR: releasesDir } });
  root = await signIn(t.app, (await makeUser(t.database, 'root')).email);
  published = await cut(true);
  draft = await cut(false);
});
afterAll(async () => {
  await t.app.close();
});

describe('GET /v2/environments', () => {
  it('200: each environment with its hosts and settings, never its command', async () => {
    const res = await api.get('/v2/environments', root);
    expect(res.statusCode).toBe(200);
    const real = res.json().environments[envs.names.real];
    expect(real).toEqual({
      id: envs.names.real,
      name: envs.names.real,
      hosts: envs.environments[0]!.hosts,
      parallelism: 2,
      timeoutSeconds: 600,
      serves: true,
    });
  });
});

describe('POST /v2/deployments: 400', () => {
  it('names the field: a draft or unknown release, an unknown environment, hosts not in it, a malformed body', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ releaseId: draft, environment: envs.names.real }, 'body.releaseId', DEPLOYMENT_MESSAGES.release],
      [{ releaseId: 2147483000, environment: envs.names.real }, 'body.releaseId', DEPLOYMENT_MESSAGES.release],
      [{ releaseId: published, environment: 'nowhere' }, 'body.environment', DEPLOYMENT_MESSAGES.environment],
      [
        { releaseId: published, environment: envs.names.real, hosts: ['/elsewhere'] },
        'body.hosts',
        DEPLOYMENT_MESSAGES.hosts,
      ],
      [{ releaseId: published, environment: envs.names.real, hosts: [] }, 'body.hosts', DEPLOYMENT_MESSAGES.hosts],
      [{ releaseId: 'x', environment: envs.names.real }, 'body.releaseId', DEPLOYMENT_MESSAGES.release],
    ];
    for (const [body, field, message] of cases) {
      const res = await api.post('/v2/deployments', root, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields).toContainEqual({ path: field, message });
    }
  });
});

describe('404', () => {
  it('for a deployment that does not exist, on every route', async () => {
    const missing = 2147483000;
    expect((await api.get(`/v2/deployments/${missing}`, root)).statusCode).toBe(404);
    expect((await api.get(`/v2/tasks?deploymentId=${missing}`, root)).statusCode).toBe(404);
    expect((await api.post(`/v2/deployments/${missing}/cancel`, root, {})).statusCode).toBe(404);
    expect((await api.post(`/v2/deployments/${missing}/retry`, root, {})).statusCode).toBe(404);
    expect((await api.del(`/v2/deployments/${missing}`, root)).statusCode).toBe(404);
  });

  it('400 for ids that are not numbers, and tasks without a deployment', async () => {
    expect((await api.get('/v2/deployments/1,a', root)).statusCode).toBe(400);
    expect((await api.get('/v2/tasks', root)).statusCode).toBe(400);
  });
});

describe('a deployment by root', () => {
  it('201 with its tasks keyed by key, listed, read with tasks, deleted once finished; all audited', async () => {
    const res = await api.post('/v2/deployments', root, {
      releaseId: published,
      environment: envs.names.real,
      hosts: [envs.environments[0]!.hosts[1]!],
    });
    expect(res.statusCode).toBe(201);
    const id = Number(Object.keys(res.json().deployments)[0]);
    expect(res.json().deployments[id].deploying).toEqual({
      environment: envs.names.real,
      hosts: [envs.environments[0]!.hosts[1]],
    });
    expect(Object.keys(res.json().tasks)).toEqual([`${id}:${envs.environments[0]!.hosts[1]}:deploy`]);
    await t.app.deployments.settle(id);
    expect(Object.keys((await api.get('/v2/deployments', root)).json().deployments)).toContain(String(id));
    const read = (await api.get(`/v2/deployments/${id}`, root)).json();
    expect(read.deployments[id].status).toBe('succeeded');
    const deleted = await api.del(`/v2/deployments/${id}`, root);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().deployments[id].deletedAt).toBeTruthy();
    const actions = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'deployment'), eq(auditLog.targetId, String(id))));
    expect(actions.map((a) => a.action).sort()).toEqual([
      'deployment.create',
      'deployment.delete',
      'deployment.finish',
    ]);
  });
});

describe('rank', () => {
  it('403 for admin and super on every route; 401 signed out', async () => {
    for (const role of ['admin', 'super'] as const) {
      const cookie = await signIn(t.app, (await makeUser(t.database, role)).email);
      const calls = [
        api.get('/v2/environments', cookie),
        api.get('/v2/deployments', cookie),
        api.get('/v2/deployments/1', cookie),
        api.get('/v2/tasks?deploymentId=1', cookie),
        api.post('/v2/deployments', cookie, { releaseId: published, environment: envs.names.real }),
        api.post('/v2/deployments/1/cancel', cookie, {}),
        api.post('/v2/deployments/1/retry', cookie, {}),
        api.del('/v2/deployments/1', cookie),
      ];
      for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(403);
    }
    expect((await api.get('/v2/deployments', '')).statusCode).toBe(401);
  });
});
