/**
 * The production build (decision 0024): scripts/build-server.mjs bundles the server into JavaScript that plain
 * node runs with no TypeScript loader. Built into a folder of its own, started as `npm start` starts it, it
 * migrates a new database, answers the API, and evaluates a template in the sandbox child it ships beside it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './config';
import { signInOverHttp } from './test/http-session';
import { emptyStorageEnv, freePort } from './test/process';
import { scratchBuild } from './test/scratch-build';

const READY = 'Tessera console:';
const headers = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };

const build = scratchBuild();

function start(env: Record<string, string>) {
  // Plain node on the bundle: no --import tsx, and no NODE_OPTIONS that could bring a loader in.
  const proc: ChildProcess = spawn(process.execPath, [path.join(build.folder(), 'main.js')], {
    cwd: REPO_ROOT,
    // One process: the bundle is under test here, the process per core in cluster.test.ts.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'warn',
      WEB_CONCURRENCY: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`never ready:\n${out}`)), 60_000);
    const collect = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(READY)) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', collect);
    proc.stderr!.on('data', collect);
    void exited.then((code) => reject(new Error(`exited (${code}) before it was ready:\n${out}`)));
  });
  return { proc, exited, ready, output: () => out };
}

describe('the compiled server', () => {
  it('ships the bundle with the files it reads beside it', () => {
    for (const file of [
      'main.js',
      'sandbox-child.mjs',
      'migrations/meta/_journal.json',
      'migrations/0000_extensions.sql',
    ])
      expect(existsSync(path.join(build.folder(), file)), file).toBe(true);
  });

  it('starts with plain node, migrates, answers the API and runs a template in its sandbox child', async () => {
    const { env: storage, drop } = await emptyStorageEnv();
    const port = await freePort();
    const email = `root-${randomUUID()}@tessera.test`;
    const password = 'Root-passw0rd!';
    const server = start({
      ...storage,
      PORT: String(port),
      ROOT_EMAIL: email,
      ROOT_PASSWORD: password,
      SEED_IDENTITIES: '0',
    });
    const base = `http://127.0.0.1:${port}`;
    try {
      await server.ready;
      const spec = await fetch(`${base}/v2/openapi.json`);
      expect(spec.status).toBe(200);
      expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\./);

      const cookie = await signInOverHttp(base, email, password);
      const preview = await fetch(`${base}/v2/templates/preview`, {
        method: 'POST',
        headers: { ...headers, cookie },
        body: JSON.stringify({ expression: '{"name": firstName & " " & lastName}' }),
      });
      const body = await preview.text();
      expect(preview.status, body).toBe(200);
      expect((JSON.parse(body) as { preview: { identities: unknown[] } }).preview.identities).toEqual([
        { score: 100, matchedOn: ['id'], name: 'Ada Lovelace' },
      ]);
    } finally {
      server.proc.kill('SIGTERM');
      const code = await server.exited;
      await drop();
      expect(code, server.output()).toBe(0);
    }
  }, 90_000);
});
