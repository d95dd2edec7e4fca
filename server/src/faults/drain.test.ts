/**
 * The fault suite, shutdown side (issue 12): SIGTERM under load and during a long streamed PUT. The process exits 0
 * well within its drain limit, the stream ends by saying where it stopped, and the usage rows equal the 2xx answers:
 * one per GET served, and the PUT's counting exactly the rows it looked up.
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { STREAM_MESSAGES } from '../features/identities/csv-stream';
import { signInOverHttp } from '../test/http-session';
import { startServerProcess } from '../test/process';
import { startLoad } from './load';

const EMAIL = 'root@drain.test';
const PASSWORD = 'Drain-passw0rd!';

/** A CSV body of endless new addresses, written as fast as the server takes it (bounded: a million rows). */
function endlessCsv(): Readable {
  let row = 0;
  return new Readable({
    read() {
      if (row === 0) this.push('email\n');
      let chunk = '';
      for (let i = 0; i < 1000 && row < 1_000_000; i++) chunk += `someone-${++row}@drain.example\n`;
      this.push(row >= 1_000_000 ? null : chunk);
    },
  });
}

interface StreamedPut {
  requestId: Promise<string>;
  /** Lines of the answer received so far. */
  lines(): number;
  done: Promise<{ status: number; body: string }>;
}

function streamPut(base: string, cookie: string): StreamedPut {
  let text = '';
  let resolveId: (id: string) => void;
  const requestId = new Promise<string>((r) => {
    resolveId = r;
  });
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(`${base}/v2/identities/byEmail`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'text/csv', 'x-requested-with': 'XMLHttpRequest' },
    });
    request.on('response', (res) => {
      resolveId(String(res.headers['x-request-id']));
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      res.on('error', (e) => reject(new Error(`${e.message} after: ${text.slice(-300)}`)));
    });
    request.on('error', () => {}); // the upload is cut once the answer has ended
    endlessCsv().pipe(request);
  });
  return { requestId, lines: () => text.split('\n').length - 1, done };
}

async function openStorage(env: Record<string, string>): Promise<Database> {
  return openDatabase({ url: env.DATABASE_URL ?? null, dataDir: env.DATABASE_URL ? null : env.DATA_DIR });
}

describe('SIGTERM', () => {
  it('under load and during a streamed PUT: exits 0, the stream says where it stopped, usage equals 2xx', async () => {
    const { child, base, storage, drop } = await startServerProcess({
      ROOT_EMAIL: EMAIL,
      ROOT_PASSWORD: PASSWORD,
      LOG_LEVEL: 'info', // the drain's first and last lines
    });
    const cookie = await signInOverHttp(base, EMAIL, PASSWORD);

    const put = streamPut(base, cookie);
    const gets = startLoad(`${base}/v2/identities/byEmail?email=nobody%40drain.example`, { cookie }, 4);
    await gets.nextSuccess();
    // Two batches of the stream answered: it is well under way when the signal comes.
    while (put.lines() < 1001) await new Promise((r) => setTimeout(r, 50));
    child.proc.kill('SIGTERM');

    const { status, body } = await put.done;
    const exitCode = await child.exited;
    const result = await gets.stop();
    expect(exitCode).toBe(0);
    expect(child.output()).not.toContain('drain took too long');
    expect(child.output()).toMatch(/"ms":\d+,"msg":"drained"/); // an operator sees the drain end, not only begin

    // The stream: every row it answered was looked up, then one row saying where it stopped.
    expect(status).toBe(200);
    const rows = body.trimEnd().split(/\r?\n/).slice(1);
    const last = rows.pop()!;
    expect(last).toMatch(new RegExp(`line (\\d+): ${STREAM_MESSAGES.drained.replace(/\./g, '\\.')}`));
    const stoppedAt = Number(/line (\d+):/.exec(last)![1]);
    expect(stoppedAt).toBe(rows.length + 2); // the header is line 1
    expect(rows.every((r) => r.endsWith(','))).toBe(true); // no row before it has an error

    // GETs answered only 2xx or 503 (draining), or found the port closed.
    for (const s of result.statuses.keys()) expect([200, 503, 'error']).toContain(s);

    const database = await openStorage(storage);
    try {
      const [put$] = await database.query<{ inputs: number; status: number }>(
        'select inputs, status from usage where request_id = $1',
        [await put.requestId],
      );
      expect(put$).toEqual({ inputs: rows.length, status: 200 });
      const [gets$] = await database.query<{ n: number; served: number }>(
        `select count(*)::int as n, count(*) filter (where request_id = any($1))::int as served
         from usage where method = 'GET'`,
        [result.servedIds],
      );
      expect(gets$).toEqual({ n: result.servedIds.length, served: result.servedIds.length });
    } finally {
      await database.close();
      await drop();
    }
  }, 120_000);

  it('with DRAIN_DELAY_SECONDS: says it is draining on /readyz at once, serves on meanwhile, then exits 0', async () => {
    // A delay long enough for the two requests below on a loaded machine (it bounds them, it does not time them).
    const { child, base, drop } = await startServerProcess({ DRAIN_DELAY_SECONDS: '10', LOG_LEVEL: 'info' });
    try {
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      child.proc.kill('SIGTERM');
      await child.waitFor('"msg":"draining"');
      const ready = await fetch(`${base}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([
        503,
        { ready: false, draining: true, checks: { database: 'ok', redis: 'absent' } },
      ]);
      const health = await fetch(`${base}/healthz`); // a balancer's last requests are still served
      expect(health.status).toBe(200);
      expect(await child.exited).toBe(0);
      expect(child.output()).toMatch(/"msg":"drained"/);
    } finally {
      child.proc.kill('SIGKILL');
      await drop();
    }
  }, 120_000);
});
