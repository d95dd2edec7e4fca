/**
 * The server as an operator runs it, for the benches (issue 27, item 8): bench/src/operator-server.ts compiled by
 * scripts/build-server.mjs into bench/dist, started by plain node (no TypeScript loader) with the environment an
 * operator would set (no LOG_LEVEL, no WEB_CONCURRENCY unless asked), its log lines written to a file as a service
 * manager would take them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@tessera/server/config';
import { freePort } from '@tessera/server/test/process';

const READY = 'Tessera console:';
const logs = mkdtempSync(path.join(tmpdir(), 'tessera-bench-logs-'));

export function buildOperatorServer(): void {
  const built = spawnSync(
    process.execPath,
    ['scripts/build-server.mjs', '--outdir', 'bench/dist', '--entry', 'bench/src/operator-server.ts'],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
  if (built.status !== 0) throw new Error('building bench/dist failed');
}

export interface OperatorServer {
  base: string;
  label: string;
  stop(): Promise<void>;
}

/** `node`: the Node binary to run it with (another runtime than the bench's own, to compare them). */
export async function startOperatorServer(
  label: string,
  env: Record<string, string>,
  node = process.execPath,
): Promise<OperatorServer> {
  const port = await freePort();
  const logFile = path.join(logs, `${label}.log`);
  const fd = openSync(logFile, 'a');
  const proc = spawn(node, ['bench/src/start-operator-server.mjs'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  process.on('exit', () => proc.kill('SIGTERM'));
  const deadline = Date.now() + 180_000;
  while (!readFileSync(logFile, 'utf8').includes(READY)) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      throw new Error(`${label} never became ready:\n${readFileSync(logFile, 'utf8')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base: `http://127.0.0.1:${port}`,
    label,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
