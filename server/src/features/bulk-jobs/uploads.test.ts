/**
 * Stored uploads (docs/jobs.md): a CSV sent once to POST /v2/uploads, kept JOB_UPLOAD_HOURS, and jobs made from it by
 * reference, as many as wanted, each answering exactly as a job made with the same body; deleted by its owner unless
 * a job still reads it, and by the retention once expired unless a job still reads it; and refused, named, when bad.
 */
import { createHash } from 'node:crypto';
import { UPLOAD_MESSAGES } from '@tessera/common/uploads';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { CONSOLE_HEADERS, makeUser, signIn } from '../../test/harness';
import { pruneJobs } from './retention';
import {
  type Customer,
  createJob,
  customer,
  emailCsv,
  getJob,
  getResult,
  type JobsWorld,
  jobsWorld,
  postJob,
  usageOf,
} from './test-support';

let w: JobsWorld;
let ada: Customer;
beforeAll(async () => {
  w = await jobsWorld('bulk_jobs_uploads');
  ada = await customer(w.t, 'admin');
});
afterAll(() => w.close());

const upload = (auth: string, csv: string, headers: Record<string, string> = {}) =>
  w.t.app.inject({
    method: 'POST',
    url: '/v2/uploads',
    headers: { authorization: auth, 'content-type': 'text/csv', ...headers },
    payload: csv,
  });

async function stored(auth: string, csv: string): Promise<{ id: string; rows: number }> {
  const res = await upload(auth, csv);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().upload;
}

const call = (method: 'GET' | 'DELETE' | 'POST', url: string, auth: string) =>
  w.t.app.inject({ method, url, headers: { authorization: auth } });

describe('an upload', () => {
  it('is kept, and makes jobs that answer as a job with the same body does', async () => {
    const { t } = w;
    const csv = await emailCsv(t, 1100);
    const res = await upload(ada.auth, csv);
    expect(res.statusCode, res.body).toBe(201);
    const kept = res.json().upload;
    expect(kept).toMatchObject({
      columns: ['ref', 'email'],
      rows: 1100,
      bytes: Buffer.byteLength(csv),
      sha256: createHash('sha256').update(csv).digest('hex'),
    });
    expect(kept.id).toMatch(/^upl_[0-9a-f]{24}$/);
    expect(res.headers.location).toBe(`/v2/uploads/${kept.id}`);
    const hours = (Date.parse(kept.expiresAt) - Date.parse(kept.createdAt)) / 3_600_000;
    expect(hours).toBeCloseTo(24, 1);
    expect((await call('GET', `/v2/uploads/${kept.id}`, ada.auth)).json().upload).toEqual(kept);
    expect((await call('GET', '/v2/uploads', ada.auth)).json().uploads[0]).toEqual(kept);

    const fromBody = await createJob(t, ada.auth, csv);
    const fromUpload = await createJob(t, ada.auth, '', `endpoint=byEmail&upload=${kept.id}`);
    const asJsonl = await createJob(t, ada.auth, '', `endpoint=byAny&format=jsonl&upload=${kept.id}`);
    expect(fromUpload).toMatchObject({ status: 'queued', rows: { total: 1100, done: 0 } });
    await t.app.jobs.runOnce();
    for (const made of [fromBody, fromUpload, asJsonl]) {
      expect(await getJob(t, ada.auth, made.id)).toMatchObject({ status: 'completed', rows: { done: 1100 } });
    }
    const expected = (await getResult(t, ada.auth, fromBody.id)).body;
    expect((await getResult(t, ada.auth, fromUpload.id)).body).toBe(expected);
    const lines = (await getResult(t, ada.auth, asJsonl.id)).body.trim().split('\n');
    expect(lines).toHaveLength(1100);
    expect(JSON.parse(lines[0]!)).toMatchObject({ line: 2, input: { ref: 'r0' } });
    // Each job is billed for its own rows: three chunks each.
    expect(await usageOf(t, fromUpload.id)).toHaveLength(3);
    expect(await usageOf(t, asJsonl.id)).toHaveLength(3);
    // The upload outlives its jobs, for more.
    expect((await call('GET', `/v2/uploads/${kept.id}`, ada.auth)).statusCode).toBe(200);
  });

  it('is refused, named, when it is no CSV, has no rows, or a job names it wrongly', async () => {
    const { t } = w;
    const headerOnly = await upload(ada.auth, 'ref,email\n');
    expect(headerOnly.statusCode).toBe(400);
    expect(headerOnly.json().error).toBe(UPLOAD_MESSAGES.empty);
    const blank = await upload(ada.auth, '\n');
    expect(blank.json().error).toBe(UPLOAD_MESSAGES.header);
    const json = await w.t.app.inject({
      method: 'POST',
      url: '/v2/uploads',
      headers: { authorization: ada.auth, 'content-type': 'application/json' },
      payload: { email: 'a@b.c' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe(UPLOAD_MESSAGES.body);
    expect((await call('GET', '/v2/uploads', ada.auth)).json().uploads.map((u: { rows: number }) => u.rows)).toEqual(
      expect.not.arrayContaining([0]),
    );

    const kept = await stored(ada.auth, 'name,city\nAda,Paris\n');
    const wrong = await postJob(t, ada.auth, '', `endpoint=byEmail&upload=${kept.id}`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatch(/names no input of byEmail/);
    const both = await postJob(t, ada.auth, 'email\na@b.c\n', `endpoint=byEmail&upload=${kept.id}`);
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toBe(UPLOAD_MESSAGES.bodyAndUpload);
    const badId = await postJob(t, ada.auth, '', 'endpoint=byEmail&upload=mine');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().fields).toEqual([{ path: 'querystring.upload', message: UPLOAD_MESSAGES.upload }]);
    const unknown = await postJob(t, ada.auth, '', `endpoint=byEmail&upload=upl_${'0'.repeat(24)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(UPLOAD_MESSAGES.notFound);
    for (const [query, path] of [
      ['limit=0', 'querystring.limit'],
      ['limit=101', 'querystring.limit'],
      ['before=upl_nope', 'querystring.before'],
      [`before=upl_${'0'.repeat(24)}`, 'querystring.before'],
    ]) {
      const res = await call('GET', `/v2/uploads?${query}`, ada.auth);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().fields.map((f: { path: string }) => f.path)).toEqual([path]);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/v2/uploads',
      headers: { 'content-type': 'text/csv' },
      payload: 'a\n1\n',
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBeDefined();
  });

  it("is another organization's as unknown as a missing one, and a colleague's to a member", async () => {
    const { t } = w;
    const kept = await stored(ada.auth, await emailCsv(t, 5));
    const stranger = await customer(t);
    for (const [method, url] of [
      ['GET', `/v2/uploads/${kept.id}`],
      ['DELETE', `/v2/uploads/${kept.id}`],
    ] as const) {
      expect((await call(method, url, stranger.auth)).statusCode).toBe(404);
    }
    expect((await postJob(t, stranger.auth, '', `endpoint=byEmail&upload=${kept.id}`)).statusCode).toBe(404);
    expect((await call('GET', '/v2/uploads', stranger.auth)).json().uploads).toEqual([]);

    // A member of the same organization sees only their own; its administrator sees theirs too.
    const colleague = await makeUser(t.database, 'user', ada.organizationId);
    const cookie = await signIn(t.app, colleague.email);
    const api = consoleClient(() => t.app);
    expect((await api.get(`/v2/uploads/${kept.id}`, cookie)).statusCode).toBe(404);
    const theirs = await api.post('/v2/uploads', cookie, undefined);
    expect(theirs.statusCode).toBe(400); // a console session uploads as a key does: a CSV body
    const made = await t.app.inject({
      method: 'POST',
      url: '/v2/uploads',
      headers: { ...CONSOLE_HEADERS, cookie, 'content-type': 'text/csv' },
      payload: 'email\na@b.example\n',
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().upload.id as string;
    expect((await call('GET', `/v2/uploads/${id}`, ada.auth)).statusCode).toBe(200);
  });

  it('is not deleted, by its owner or the retention, while a job made from it has not ended', async () => {
    const { t } = w;
    const kept = await stored(ada.auth, await emailCsv(t, 600));
    const job = await createJob(t, ada.auth, '', `endpoint=byEmail&upload=${kept.id}`);
    const refused = await call('DELETE', `/v2/uploads/${kept.id}`, ada.auth);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(UPLOAD_MESSAGES.inUse(job.id));

    await t.database.db.execute(
      sql`update csv_uploads set expires_at = now() - interval '1 minute' where public_id = ${kept.id}`,
    );
    await pruneJobs(t.database);
    await t.app.jobs.runOnce();
    expect(await getJob(t, ada.auth, job.id)).toMatchObject({ status: 'completed', rows: { done: 600 } });
    // Expired, it is no longer offered; once its job ended, the retention deletes it.
    expect((await call('GET', `/v2/uploads/${kept.id}`, ada.auth)).statusCode).toBe(404);
    expect((await postJob(t, ada.auth, '', `endpoint=byEmail&upload=${kept.id}`)).statusCode).toBe(404);
    await pruneJobs(t.database);
    const left = await t.database.query(`select 1 from csv_uploads where public_id = $1`, [kept.id]);
    expect(left).toEqual([]);

    const other = await stored(ada.auth, await emailCsv(t, 5));
    const deleted = await call('DELETE', `/v2/uploads/${other.id}`, ada.auth);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().uploads[other.id]).toMatchObject({ id: other.id, deletedAt: expect.any(String) });
    expect((await call('GET', `/v2/uploads/${other.id}`, ada.auth)).statusCode).toBe(404);
  });

  it('is made once however often it is retried with an Idempotency-Key', async () => {
    const csv = await emailCsv(w.t, 5);
    const first = await upload(ada.auth, csv, { 'idempotency-key': 'file-1' });
    const again = await upload(ada.auth, csv, { 'idempotency-key': 'file-1' });
    expect(first.statusCode, first.body).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().upload.id).toBe(first.json().upload.id);
  });
});
