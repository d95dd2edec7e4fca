/**
 * A process per core (decision 0043), with the real server process: WEB_CONCURRENCY workers on PostgreSQL serve in
 * turn, share their counters and pushes, one that dies is replaced, and SIGTERM drains every one of them.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { BACKOFF_MAX_MS, backoffMs } from './cluster';
import { accessLines, accessLinesOf, halfSignIn, requestOnce } from './test/access-lines';
import { scratchDatabase } from './test/databases';
import { signInOverHttp } from './test/http-session';
import { type Child, freePort, runChild } from './test/process';
import { scratchDir } from './test/scratch-dir';
import { openSocket } from './test/socket-client';

/** Set in the server-postgres project only (TEST_DATABASE_URL). */
const databaseUrl = inject('databaseUrl');
const NEEDS_POSTGRES = 'needs PostgreSQL: runs in the server-postgres project when TEST_DATABASE_URL is set';
const PASSWORD = 'Root-passw0rd!';

const count = (text: string, part: string) => text.split(part).length - 1;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The pids of the processes that logged they listen. */
function listening(output: string): Set<number> {
  const pids = new Set<number>();
  for (const line of output.split('\n')) {
    const pid = /^\{.*"pid":(\d+).*"msg":"Server listening at /.exec(line)?.[1];
    if (pid) pids.add(Number(pid));
  }
  return pids;
}

/** Requests on new connections until access lines name `want` distinct workers; answers the pids seen. */
async function workersServing(child: Child, port: number, want: number, among?: (pid: number) => boolean) {
  const pids = new Set<number>();
  for (let attempt = 0; attempt < 100 && pids.size < want; attempt++) {
    const { id } = await requestOnce(port, 'GET', '/healthz');
    const [line] = await accessLinesOf(child, [id]);
    if (!among || among(line!.pid)) pids.add(line!.pid);
  }
  return pids;
}

describe('replacing a worker that died', () => {
  it('waits longer each time replacements keep dying young, up to a ceiling', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(backoffMs(20)).toBe(BACKOFF_MAX_MS);
  });
});

describe('a process per core', { timeout: 180_000 }, () => {
  it('refuses more than one process on the embedded database, and a bad WEB_CONCURRENCY, naming it', async () => {
    const cases = [
      ['2', 'Invalid configuration: WEB_CONCURRENCY must be 1 on the embedded database'],
      ['0', 'Invalid configuration: WEB_CONCURRENCY must be a whole number from 1 to 256.'],
      ['abc', 'Invalid configuration: WEB_CONCURRENCY must be a whole number from 1 to 256.'],
    ] as const;
    for (const [value, message] of cases) {
      const child = runChild(['server/src/main.ts'], { DATA_DIR: scratchDir('data'), WEB_CONCURRENCY: value });
      expect(await child.exited).toBe(1);
      expect(child.output()).toContain(message);
      expect(child.output()).not.toContain('Tessera console:');
    }
  });

  it('on PostgreSQL: workers serve in turn, share counters and pushes, are replaced, and all drain on SIGTERM', async (ctx) => {
    ctx.skip(!databaseUrl, NEEDS_POSTGRES);
    const scratch = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'cluster');
    const port = await freePort();
    const email = `root-${randomUUID()}@cluster.test`;
    const child = runChild(['server/src/main.ts'], {
      DATABASE_URL: scratch.url,
      DATA_DIR: scratchDir('data'),
      PORT: String(port),
      WEB_CONCURRENCY: '2',
      LOG_LEVEL: 'debug', // "incoming request" lines tell when a request is in flight
      SEED_IDENTITIES: '0',
      ROOT_EMAIL: email,
      ROOT_PASSWORD: PASSWORD,
    });
    try {
      await child.waitFor(`Tessera console: http://localhost:${port}/`, 90_000);
      const primary = child.proc.pid!;
      // The primary migrated and made the root user once, and announced the console once, when both listened.
      expect(count(child.output(), 'ROOT_EMAIL: root user created.')).toBe(1);
      expect(count(child.output(), 'Tessera console:')).toBe(1);
      expect(listening(child.output()).size).toBe(2);
      expect(listening(child.output())).not.toContain(primary);

      // Connections go to both workers; the primary serves none.
      const workers = await workersServing(child, port, 2);
      expect(workers.size).toBe(2);
      expect(workers).not.toContain(primary);

      // Throttling counts across workers (without Redis, in the primary): 5 reset mails an hour per address.
      const address = `nobody-${randomUUID()}@cluster.test`;
      const forgot: { status: number; id: string }[] = [];
      for (let i = 0; i < 6; i++) forgot.push(await requestOnce(port, 'POST', '/auth/forgot', { email: address }));
      expect(forgot.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(
        new Set(
          (
            await accessLinesOf(
              child,
              forgot.map((a) => a.id),
            )
          ).map((l) => l.pid),
        ).size,
      ).toBe(2);

      // Pushes reach every worker: signing out closes the session's sockets wherever they are connected.
      const base = `http://127.0.0.1:${port}`;
      const cookie = await signInOverHttp(base, email, PASSWORD);
      const sockets = [];
      for (let i = 0; i < 4; i++) sockets.push(await openSocket(base, { cookie })); // in turn: on both workers
      const logout = await requestOnce(port, 'PUT', '/auth/logout', undefined, { cookie });
      expect(logout.status).toBe(200);
      await Promise.all(sockets.map((s) => s.closed));

      // A worker that dies is replaced, and the new one serves beside the one left.
      const [victim] = [...workers];
      process.kill(victim!, 'SIGKILL');
      await child.waitFor('a server process exited unexpectedly; starting another');
      while (![...listening(child.output())].some((pid) => !workers.has(pid))) await sleep(100);
      const replaced = await workersServing(child, port, 2, (pid) => pid !== victim);
      expect(replaced.size).toBe(2);
      expect(replaced).not.toContain(primary);

      // Requests in flight on both workers when SIGTERM comes all finish, and every answer has its access line.
      const before = count(child.output(), '"url":"/auth/login"');
      const inFlight = [];
      for (let i = 0; i < 4; i++) {
        const request = halfSignIn(port, email, 'Wrong-passw0rd!');
        await request.connected;
        inFlight.push(request);
      }
      // Each is in flight once its worker has logged it as an incoming request (the headers are read).
      while (count(child.output(), '"url":"/auth/login"') < before + 4) await sleep(50);
      const quick = await Promise.all(Array.from({ length: 20 }, () => requestOnce(port, 'GET', '/healthz')));
      child.proc.kill('SIGTERM');
      const finished = await Promise.all(inFlight.map((r) => r.finish()));
      expect(finished.map((f) => f.status)).toEqual([401, 401, 401, 401]);
      expect(await child.exited).toBe(0);
      expect(child.output()).toContain('every server process drained');
      expect(child.output()).not.toContain('did not drain cleanly');

      const answered = [...finished, ...quick];
      const byId = new Map(accessLines(child.output()).map((l) => [l.reqId, l]));
      expect(answered.filter((a) => !byId.has(a.id)).map((a) => a.id)).toEqual([]);
      expect(new Set(finished.map((f) => byId.get(f.id)?.pid)).size).toBe(2);
      expect(quick.every((q) => byId.get(q.id)?.statusCode === 200)).toBe(true);
    } finally {
      if (child.proc.exitCode === null && child.proc.signalCode === null) {
        child.proc.kill('SIGTERM');
        await child.exited;
      }
      await scratch.drop();
    }
  });
});
