/**
 * A worker's counters through the primary (decision 0043): a call the primary never answers fails after
 * CALL_TIMEOUT_MS instead of holding its request forever. The worker is a real child process with an IPC channel
 * whose other end (this test) reads the call and says nothing.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { CALL_TIMEOUT_MS } from './cluster-shared';
import { REPO_ROOT } from './config';
import { COUNTERS_AWAY, PAUSE_MS } from './features/throttle/outage';

it('fails a counter call the primary does not answer with a 503 to retry, naming what it waited for', async () => {
  const module = path.join(REPO_ROOT, 'server/src/cluster-shared.ts');
  const script = `
    const { workerLimiter } = await import(${JSON.stringify(module)});
    try {
      await workerLimiter().hit('k', 60000);
      console.log('answered');
    } catch (error) {
      console.log(['rejected', error.status, error.headers['retry-after'], error.message, error.cause.message].join(' | '));
    }
    process.exit(0);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const calls: unknown[] = [];
  child.on('message', (message) => calls.push(message));
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(0);
  expect(calls).toEqual([expect.objectContaining({ target: 'limiter', method: 'hit', args: ['k', 60000] })]);
  // A 503 the client may retry (not a 500), the detail kept for the log.
  expect(out.trim()).toBe(
    [
      'rejected',
      503,
      PAUSE_MS / 1000,
      COUNTERS_AWAY,
      `the cluster's primary did not answer limiter.hit within ${CALL_TIMEOUT_MS} ms`,
    ].join(' | '),
  );
}, 60_000);
