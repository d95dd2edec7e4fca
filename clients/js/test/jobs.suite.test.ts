/**
 * The JavaScript client's bulk jobs and change subscriptions (issue 33 item 4): the BUILT package against a really
 * started server whose job runner runs. A job's CSV result is byte for byte the CSV upload's reply to the same body and
 * its jsonl rows are exact; a job is read, listed a page at a time and cancelled; a running job's result is a 409, a
 * wait past its time a timeout naming the job, a bad endpoint a 400 naming it. Subscriptions are made (by id, by
 * input), read, listed, deleted, and refused for an identity no one knows. A scripted server on loopback stands in for
 * a 503 during a wait and a 410 of an expired result. The README's two examples run as written.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { JOB_MESSAGES } from '@tessera/common/jobs';
import { LOOKUP_ENDPOINT_NAMES } from '@tessera/common/lookups';
import { SUBSCRIPTION_MESSAGES } from '@tessera/common/subscriptions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunResult, run, useClientServer } from '../../support/server';
import type { Job, TesseraError } from '../src/index';

type NodePkg = typeof import('../src/node');

const PKG = fileURLToPath(new URL('..', import.meta.url));
const env = useClientServer({ organizationKey: true });
// Built beside the server's start (the build swaps dist in whole, so the main suite's build may run alongside).
const building: Promise<RunResult> = run('npm', ['run', 'build'], { cwd: PKG, timeoutMs: 180_000 });
const tmp = mkdtempSync(path.join(tmpdir(), 'tessera-js-jobs-'));
let T: NodePkg;

beforeAll(async () => {
  const built = await building;
  if (built.code !== 0) throw new Error(`npm run build failed (${built.code}):\n${built.stdout}\n${built.stderr}`);
  T = (await import(pathToFileURL(path.join(PKG, 'dist/esm/node.js')).href)) as NodePkg;
}, 240_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const client = (apiKey = env.apiKey.key, baseUrl = env.baseUrl) => new T.TesseraClient({ baseUrl, apiKey });
const organization = () => client(env.organizationKey!.key);

/** The error a call throws (failing the test when it does not). */
async function refusal(call: Promise<unknown>): Promise<TesseraError> {
  const error = await call.then(
    () => new Error('the call succeeded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(T.TesseraError);
  return error as TesseraError;
}

/** A found row, a row no one matches, and a row that is not an e-mail address. */
const csv = () => `ref,email\r\nc-1,${env.email}\r\nc-2,nobody@example.com\r\nc-3,not an address\r\n`;
const OPTIONS = { template: 3, limit: 1 } as const;

async function text(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let out = '';
  for await (const chunk of chunks) out += decoder.decode(chunk, { stream: true });
  return out + decoder.decode();
}

function expectEnded(job: Job, status: Job['status']) {
  expect(job.status).toBe(status);
  expect(job.finishedAt).toEqual(expect.any(String));
  expect(job.resultUrl).toBe(`/v2/jobs/${job.id}/result`);
}

describe('a bulk job', () => {
  it('is submitted, waited for and downloaded as CSV: byte for byte the CSV upload of the same body', async () => {
    const jobs = client().jobs;
    const made = await jobs.submit('byEmail', csv(), OPTIONS);
    expect(made.meta.status).toBe(202);
    expect(made).toMatchObject({ endpoint: 'byEmail', format: 'csv', options: { template: 3, limit: 1 } });
    expect(made.id).toMatch(/^job_[0-9a-f]{24}$/);
    expect(made.rows.total).toBe(3);
    expect(['queued', 'running', 'completed']).toContain(made.status);

    const seen: string[] = [];
    const done = await jobs.wait(made.id, {
      intervalMs: 200,
      timeoutMs: 120_000,
      onProgress: (j) => seen.push(j.status),
    });
    expectEnded(done, 'completed');
    expect(done.rows).toEqual({ total: 3, done: 3, matched: 1, failed: 1 });
    expect(done.identities).toBe(1);
    expect(done.error).toBeNull();
    expect(seen.at(-1)).toBe('completed');

    const result = await jobs.result(made.id);
    expect(result.format).toBe('csv');
    expect(result.filename).toBe(`${made.id}.csv`);
    const body = await text(result);
    const put = await client().uploadCsv('byEmail', csv(), OPTIONS);
    expect(body).toBe(await put.text());
    const lines = body.split('\r\n');
    expect(lines[0]).toMatch(/^ref,email,score,matchedOn,id,/);
    expect(lines[0]).toMatch(/,error$/);
    const cells = lines.slice(1, 4).map((line) => T.parseCsvRecord(line));
    expect(cells.map((c) => c.slice(0, 2))).toEqual([
      ['c-1', env.email],
      ['c-2', 'nobody@example.com'],
      ['c-3', 'not an address'],
    ]);
    expect(cells[0]![4]).toBe(String(env.identityId));
    expect(cells[0]!.at(-1)).toBe('');
    expect(cells[1]!.slice(2).every((cell) => cell === '')).toBe(true);
    expect(cells[2]!.at(-1)).toMatch(/e-mail|email/i);
    expect(lines.slice(4)).toEqual(['']);

    // Sent under an Idempotency-Key (a UUID by default): a repeat under a given one gets the first job back.
    expect(made.meta.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const key = `job-${made.id}`;
    const keyed = await jobs.submit('byEmail', csv(), { ...OPTIONS, idempotencyKey: key });
    const again = await jobs.submit('byEmail', csv(), { ...OPTIONS, idempotencyKey: key });
    expect(again.id).toBe(keyed.id);
    expect([keyed.meta.replayed, again.meta.replayed]).toEqual([false, true]);
    await jobs.wait(keyed.id, { intervalMs: 200 });

    // The permissible purpose goes in the query: an id that is no purpose is the server's 400, naming it; a real one
    // is taken (the test server's contracts require none).
    await expect(
      jobs.submit('byEmail', csv(), { ...OPTIONS, purpose: 'no-such-purpose' as never }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('no-such-purpose') });
    const purposed = await jobs.submit('byEmail', csv(), { ...OPTIONS, purpose: 'fcra-employment' });
    expect(purposed.status).toMatch(/^(queued|running|completed)$/);

    // Saved to a file, a piece at a time: the same bytes.
    const file = path.join(tmp, 'result.csv');
    const saved = await T.saveJobResult(client(), made.id, file);
    expect(saved).toMatchObject({ format: 'csv', bytes: Buffer.byteLength(body) });
    expect(readFileSync(file, 'utf8')).toBe(body);
  });

  it('answers jsonl: one object a row, its line, input, identities and error', async () => {
    const jobs = client().jobs;
    const made = await jobs.submit('byEmail', new TextEncoder().encode(csv()), { ...OPTIONS, format: 'jsonl' });
    expect(made.format).toBe('jsonl');
    const done = await jobs.wait(made.id, { intervalMs: 200, timeoutMs: 120_000 });
    expect(done.rows).toEqual({ total: 3, done: 3, matched: 1, failed: 1 });

    const items = [];
    const result = await jobs.result(made.id);
    expect(result.format).toBe('jsonl');
    for await (const item of result.items()) items.push(item);
    expect(items.map(({ identities, ...rest }) => rest)).toEqual([
      { line: 2, input: { ref: 'c-1', email: env.email }, error: null },
      { line: 3, input: { ref: 'c-2', email: 'nobody@example.com' }, error: null },
      { line: 4, input: { ref: 'c-3', email: 'not an address' }, error: expect.stringMatching(/e-mail|email/i) },
    ]);
    expect(items[0]!.identities).toHaveLength(1);
    // The CSV result's cells, as text.
    expect(items[0]!.identities[0]).toMatchObject({ id: String(env.identityId), matchedOn: 'email' });
    expect(items[0]!.identities[0]!.score).toMatch(/^\d+$/);
    expect(items[1]!.identities).toEqual([]);
    expect(items[2]!.identities).toEqual([]);

    const file = path.join(tmp, 'result.jsonl');
    await T.saveJobResult(client(), made.id, file);
    const saved = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(saved.map((line) => JSON.parse(line))).toEqual(items);
  });

  it('is read, listed a page at a time newest first, and refuses a cancel once it has ended (409)', async () => {
    const jobs = client().jobs;
    const first = await jobs.wait((await jobs.submit('byEmail', csv())).id, { intervalMs: 200 });
    const second = await jobs.wait((await jobs.submit('byEmail', csv(), { format: 'jsonl' })).id, { intervalMs: 200 });
    const read = await jobs.get(second.id);
    expect(read.meta.status).toBe(200);
    expect({ ...read }).toEqual({ ...second });

    const page = await jobs.list({ limit: 1 });
    expect(page.jobs.map((j) => j.id)).toEqual([second.id]);
    expect(page.next).toBe(second.id);
    const after = await jobs.list({ limit: 1, before: page.next! });
    expect(after.jobs.map((j) => j.id)).toEqual([first.id]);
    const all: string[] = [];
    for await (const job of jobs.all({ limit: 2 })) all.push(job.id);
    expect(all.slice(0, 2)).toEqual([second.id, first.id]);
    expect(new Set(all).size).toBe(all.length);

    const ended = await refusal(jobs.cancel(first.id));
    expect(ended).toMatchObject({ status: 409, code: 'conflict', message: JOB_MESSAGES.ended('completed') });
    const unknown = await refusal(jobs.get('job_000000000000000000000000'));
    expect(unknown).toMatchObject({ status: 404, code: 'not_found', message: JOB_MESSAGES.notFound });
  });

  it('while it runs: a wait past its time names it, its result is a 409, and a cancel ends it', async () => {
    const jobs = client().jobs;
    // Long enough to be running still a few calls after it is made (the runner takes 2,000 rows at a time).
    const rows = Array.from({ length: 40_000 }, (_, i) => `r-${i},nobody-${i}@example.com`).join('\n');
    const made = await jobs.submit('byEmail', `ref,email\n${rows}\n`);
    expect(made.rows.total).toBe(40_000);

    const late = await refusal(jobs.wait(made.id, { timeoutMs: 0 }));
    expect(late).toMatchObject({ status: 0, code: 'timeout' });
    expect(late.message).toContain(`Job ${made.id} has not ended after 0 ms`);
    expect(late.message).toMatch(/it is (queued|running), \d+ of 40000 rows done/);

    const early = await refusal(jobs.result(made.id));
    expect(early).toMatchObject({ status: 409, code: 'conflict' });
    expect(early.message).toBe(JOB_MESSAGES.notEnded);
    const file = path.join(tmp, 'never.csv');
    await refusal(T.saveJobResult(client(), made.id, file));
    expect(() => readFileSync(file)).toThrow(/ENOENT/);

    const cancelled = await jobs.cancel(made.id);
    expectEnded(cancelled, 'cancelled');
    expect(cancelled.rows.done).toBeLessThan(40_000);
    expectEnded(await jobs.wait(made.id, { intervalMs: 200 }), 'cancelled');
    // The rows done before the cancel stay downloadable.
    const kept = await text(await jobs.result(made.id));
    expect(kept === '' || kept.startsWith('ref,email,score,matchedOn,')).toBe(true);
  });

  it('refuses a bad endpoint, naming it, before any job exists', async () => {
    const error = await refusal(client().jobs.submit('byNothing' as never, csv()));
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(error.message).toContain('"byNothing" is not a lookup endpoint');
    expect(error.fields?.[0]?.message).toBe(JOB_MESSAGES.endpoint('byNothing', LOOKUP_ENDPOINT_NAMES));
    expect(error.fields?.[0]?.path).toBe('querystring.endpoint');
  });
});

describe('waiting and downloading, when the server says 503 or 410 (a scripted server)', () => {
  async function scripted(answer: (res: ServerResponse, n: number) => void) {
    let n = 0;
    const server = createServer((req, res) => {
      n += 1;
      req.resume();
      req.on('end', () => answer(res, n));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, count: () => n, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
  const KEY = `${'k'.repeat(16)}${'s'.repeat(32)}`;
  const job = (status: string) => ({
    job: { id: 'job_0123456789abcdef01234567', status, rows: { done: 1, total: 2 } },
  });
  const reply = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  it('retries a read of the job on 503 after its Retry-After, as any call, and goes on waiting', async () => {
    const server = await scripted((res, n) => {
      if (n === 1) reply(res, 503, { error: 'Away for a moment.', code: 'unavailable' }, { 'retry-after': '0' });
      else reply(res, 200, job(n === 2 ? 'running' : 'completed'));
    });
    const retried: number[] = [];
    try {
      const done = await new T.TesseraClient({
        baseUrl: server.url,
        apiKey: KEY,
        retry: { onRetry: (e) => retried.push(e.error.status) },
      }).jobs.wait('job_0123456789abcdef01234567', { intervalMs: 10 });
      expect(done.status).toBe('completed');
      expect(retried).toEqual([503]);
      expect(server.count()).toBe(3);
    } finally {
      await server.close();
    }
  });

  it("answers an expired result's 410 as code gone, with the server's message", async () => {
    const message = "The job's result was deleted: results are kept 7 days after a job ends.";
    const server = await scripted((res) => reply(res, 410, { error: message, code: 'gone' }));
    try {
      const error = await refusal(client(KEY, server.url).jobs.result('job_0123456789abcdef01234567'));
      expect(error).toMatchObject({ status: 410, code: 'gone', message });
    } finally {
      await server.close();
    }
  });
});

describe('change subscriptions', () => {
  it('are made by id and by input, read, listed newest first, and deleted', async () => {
    const subscriptions = organization().subscriptions;
    const byId = await subscriptions.create({ identityId: env.identityId });
    expect(byId.meta.status).toBe(201);
    expect({ ...byId }).toEqual({
      id: expect.any(Number),
      organizationId: expect.any(Number),
      userId: expect.any(Number),
      keyId: env.organizationKey!.id,
      identityId: env.identityId,
      input: null,
      templateId: 1,
      createdAt: expect.any(String),
    });
    const input = { email: ` ${env.email.toUpperCase()} `, template: 3 };
    const byEmail = await subscriptions.create(input, { idempotencyKey: `subscribe-${byId.id}` });
    // The same key again: the first subscription back, no second one.
    const replayed = await subscriptions.create(input, { idempotencyKey: `subscribe-${byId.id}` });
    expect(replayed.id).toBe(byEmail.id);
    expect(replayed.meta.replayed).toBe(true);
    expect(byEmail).toMatchObject({
      identityId: env.identityId,
      input: { kind: 'email', value: env.email },
      templateId: 3,
    });

    expect({ ...(await subscriptions.get(byId.id)) }).toEqual({ ...byId });
    const page = await subscriptions.list();
    expect(page.subscriptions.map((s) => s.id)).toEqual([byEmail.id, byId.id]);
    expect(page.next).toBeNull();
    // The organization's count against its contract's limit (Demo's sets none).
    expect([page.live, page.limit]).toEqual([2, null]);
    expect((await subscriptions.list({ before: byEmail.id })).subscriptions.map((s) => s.id)).toEqual([byId.id]);

    const gone = await subscriptions.delete(byId.id);
    expect({ ...gone }).toEqual({ id: byId.id, deletedAt: expect.any(String) });
    expect(await refusal(subscriptions.get(byId.id))).toMatchObject({
      status: 404,
      message: SUBSCRIPTION_MESSAGES.notFound,
    });
    expect(await refusal(subscriptions.delete(byId.id))).toMatchObject({ status: 404, code: 'not_found' });
    const left: number[] = [];
    for await (const s of subscriptions.all()) left.push(s.id);
    expect(left).toEqual([byEmail.id]);
    await subscriptions.delete(byEmail.id);
  });

  it('refuses an identity or an input no one holds (404), and a key of no organization (403)', async () => {
    const subscriptions = organization().subscriptions;
    expect(await refusal(subscriptions.create({ identityId: 987_654_321 }))).toMatchObject({
      status: 404,
      code: 'not_found',
      message: SUBSCRIPTION_MESSAGES.unknownIdentity(987_654_321),
    });
    expect(await refusal(subscriptions.create({ email: 'nobody@example.com' }))).toMatchObject({
      status: 404,
      message: SUBSCRIPTION_MESSAGES.unresolved('email'),
    });
    expect(await refusal(subscriptions.create({ identityId: 1, email: env.email }))).toMatchObject({ status: 400 });
    expect(await refusal(client().subscriptions.list())).toMatchObject({ status: 403, code: 'forbidden' });
  });
});

describe('README', () => {
  const readme = () => readFileSync(path.join(PKG, 'README.md'), 'utf8');
  const blocks = () => [...readme().matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

  it('shows examples/bulk-job.mjs, which runs as written: submit, wait, download', async () => {
    const example = readFileSync(path.join(PKG, 'examples/bulk-job.mjs'), 'utf8');
    expect(blocks()).toContain(example);
    const dir = mkdtempSync(path.join(tmp, 'readme-'));
    writeFileSync(path.join(dir, 'customers.csv'), csv());
    const result = await run('node', [path.join(PKG, 'examples/bulk-job.mjs')], { cwd: dir, env: env.env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/completed: 3 of 3 rows\n1 of 3 rows matched; \d+ bytes in customers-result\.csv\n$/);
    expect(readFileSync(path.join(dir, 'customers-result.csv'), 'utf8')).toContain(`c-1,${env.email},`);
  });

  it('shows examples/subscriptions.mjs, which runs as written with a key of an organization', async () => {
    const example = readFileSync(path.join(PKG, 'examples/subscriptions.mjs'), 'utf8');
    expect(blocks()).toContain(example);
    const result = await run('node', [path.join(PKG, 'examples/subscriptions.mjs')], {
      cwd: tmp,
      env: env.env({ TESSERA_API_KEY: env.organizationKey!.key }),
    });
    expect(result.code, result.stderr).toBe(0);
    const id = /^subscription (\d+) follows identity (\d+)\n/.exec(result.stdout);
    expect(id?.[2]).toBe(String(env.identityId));
    expect(result.stdout).toContain(`\n${id?.[1]} ${env.identityId} email\n`);
    expect((await organization().subscriptions.list()).subscriptions).toEqual([]);
  });
});
