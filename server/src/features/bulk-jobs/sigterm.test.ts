/**
 * The check (issue 33 item 3): a job of 200,000 rows in a real server process, SIGTERMed once some chunks are
 * done (seen through the API), restarted on the same storage, finishes with every row answered once and billed once:
 * the result holds each row exactly once, and the usage rows are one per chunk, their inputs adding up to the rows.
 */
import type { Job } from '@tessera/common/jobs';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { signInOverHttp } from '../../test/http-session';
import { freePort, runChild, startServerProcess } from '../../test/process';

const EMAIL = 'root@jobs.test';
const PASSWORD = 'Jobs-passw0rd!';
const ROWS = 200_000;
const CHUNK = 2000;
const ENV = { ROOT_EMAIL: EMAIL, ROOT_PASSWORD: PASSWORD, LOG_LEVEL: 'info', JOB_CHUNK_ROWS: String(CHUNK) };

function csv(): string {
  const lines = ['ref,email'];
  for (let i = 0; i < ROWS; i++) lines.push(`r${i},someone-${i}@jobs.example`);
  return `${lines.join('\n')}\n`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function openStorage(env: Record<string, string>): Promise<Database> {
  return openDatabase({ url: env.DATABASE_URL ?? null, dataDir: env.DATABASE_URL ? null : env.DATA_DIR });
}

describe('a bulk job across a SIGTERM', () => {
  it('finishes after a restart with every row answered once and billed once', async () => {
    const first = await startServerProcess(ENV);
    let second: ReturnType<typeof runChild> | null = null;
    try {
      const headers = {
        cookie: await signInOverHttp(first.base, EMAIL, PASSWORD),
        'x-requested-with': 'XMLHttpRequest',
      };
      const made = await fetch(`${first.base}/v2/jobs?endpoint=byEmail`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/csv' },
        body: csv(),
      });
      expect(made.status, await made.clone().text()).toBe(202);
      const { id } = ((await made.json()) as { job: Job }).job;
      const read = async (base: string) => {
        const res = await fetch(`${base}/v2/jobs/${id}`, { headers });
        return ((await res.json()) as { job: Job }).job;
      };

      // Some chunks done, but far from all: then the signal.
      let job = await read(first.base);
      while (job.rows.done < 5 * CHUNK) {
        expect(job.status).not.toBe('completed');
        await sleep(100);
        job = await read(first.base);
      }
      first.child.proc.kill('SIGTERM');
      expect(await first.child.exited).toBe(0);
      const stopped = await openStorage(first.storage);
      const [at] = await stopped.query<{ rows_done: number; status: string }>(
        'select rows_done, status from bulk_jobs where public_id = $1',
        [id],
      );
      await stopped.close();
      expect(at!.rows_done).toBeLessThan(ROWS);
      expect(at!.rows_done % CHUNK).toBe(0);

      // Restarted on the same storage: the job goes on from its last chunk and ends.
      const port = await freePort();
      second = runChild(['server/src/main.ts'], { ...first.storage, ...ENV, PORT: String(port), SEED_IDENTITIES: '0' });
      await second.waitFor('Tessera console:');
      const base = `http://127.0.0.1:${port}`;
      const cookie = await signInOverHttp(base, EMAIL, PASSWORD);
      Object.assign(headers, { cookie });
      for (job = await read(base); job.status !== 'completed'; job = await read(base)) {
        expect(['queued', 'running']).toContain(job.status);
        await sleep(250);
      }
      expect(job.rows).toEqual({ total: ROWS, done: ROWS, matched: 0, failed: 0 });

      // Answered once: each row exactly once in the result, in order.
      const result = await fetch(`${base}/v2/jobs/${id}/result`, { headers });
      expect(result.status).toBe(200);
      const lines = (await result.text()).trimEnd().split('\r\n');
      expect(lines[0]!.startsWith('ref,email,')).toBe(true);
      expect(lines).toHaveLength(ROWS + 1);
      let inOrder = true;
      for (let i = 0; i < ROWS; i++) if (!lines[i + 1]!.startsWith(`r${i},`)) inOrder = false;
      expect(inOrder).toBe(true);

      // Billed once: a usage row per chunk, under the job's ids, the inputs adding up to the rows.
      second.proc.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      second = null;
      const database = await openStorage(first.storage);
      try {
        const [usage] = await database.query<{ n: number; ids: number; inputs: number }>(
          `select count(*)::int as n, count(distinct request_id)::int as ids, sum(inputs)::int as inputs
           from usage where request_id like $1`,
          [`${id}.%`],
        );
        expect(usage).toEqual({ n: ROWS / CHUNK, ids: ROWS / CHUNK, inputs: ROWS });
      } finally {
        await database.close();
      }
    } finally {
      first.child.proc.kill('SIGKILL');
      second?.proc.kill('SIGKILL');
      await first.drop();
    }
  }, 600_000);
});
