/**
 * For tests: a real redis-server of the test's own on a free loopback port, with nothing kept on disk, which the test
 * may kill (an outage), freeze (a stall) and start again on the same port. Never the shared Redis of the run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../../test/process';

const REDIS_SERVER = '/usr/bin/redis-server';

export interface TestRedis {
  readonly url: string;
  /** Starts the server (again) on its port and waits until it accepts connections. */
  start(): Promise<void>;
  /** SIGKILL: every connection drops and new ones are refused, as when Redis dies. */
  kill(): Promise<void>;
  /** SIGSTOP: connections stay open but nothing is answered, as in a partition; `resume` ends it. */
  freeze(): void;
  resume(): void;
}

export async function testRedis(): Promise<TestRedis> {
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const redis: TestRedis = {
    url: `redis://127.0.0.1:${port}`,
    start: () =>
      new Promise<void>((resolve, reject) => {
        const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
        const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        proc = child;
        let out = '';
        const collect = (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Ready to accept connections')) resolve();
        };
        child.stdout!.on('data', collect);
        child.stderr!.on('data', collect);
        child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
      }),
    async kill() {
      const child = proc;
      proc = null;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    freeze: () => void proc?.kill('SIGSTOP'),
    resume: () => void proc?.kill('SIGCONT'),
  };
  await redis.start();
  return redis;
}
