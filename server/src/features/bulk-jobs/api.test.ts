/**
 * The bulk job API (issue 33 item 3): a job made from a CSV answers every row exactly as the streamed PUT answers the
 * same CSV (its result file is the PUT's reply), bills each chunk once, tells its progress, ends with a job.completed
 * event, and refuses what it must: a bad header, an unknown endpoint, template or format, another organization's job,
 * a result asked for too early, a job cancelled twice.
 */
import { JOB_MESSAGES } from '@tessera/common/jobs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEndpoint } from '../webhooks/test-support';
import { KEY_GONE } from './chunk';
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
  putReply,
  usageOf,
} from './test-support';

let w: JobsWorld;
let ada: Customer;
beforeAll(async () => {
  w = await jobsWorld('bulk_jobs_api');
  ada = await customer(w.t, 'admin');
});
afterAll(() => w.close());

describe('a job', () => {
  it('answers every row as the streamed PUT does, bills each chunk once and ends with a job.completed event', async () => {
    const { t } = w;
    const hook = await makeEndpoint(t, ada.cookie, { url: 'https://93.184.215.14/hooks', events: ['job.completed'] });
    const csv = await emailCsv(t, 1234);
    const made = await createJob(t, ada.auth, csv);
    expect(made).toMatchObject({
      status: 'queued',
      endpoint: 'byEmail',
      format: 'csv',
      rows: { total: 1234, done: 0 },
    });
    expect(made.id).toMatch(/^job_[0-9a-f]{24}$/);
    expect((await getResult(t, ada.auth, made.id)).statusCode).toBe(409);

    expect(await t.app.jobs.runOnce()).toBe(3);
    const job = await getJob(t, ada.auth, made.id);
    expect(job).toMatchObject({
      status: 'completed',
      rows: { total: 1234, done: 1234, matched: 173, failed: 24 },
      etaSeconds: null,
      resultUrl: `/v2/jobs/${made.id}/result`,
    });
    expect(job.rowsPerSecond).toBeGreaterThan(0);
    expect(Number(job.cost)).toBeGreaterThan(0);
    expect(job.expiresAt).not.toBeNull();

    const result = await getResult(t, ada.auth, made.id);
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(result.body).toBe(await putReply(t, ada.auth, csv));

    const usage = await usageOf(t, made.id);
    expect(usage.map((u) => u.request_id)).toEqual([0, 1, 2].map((c) => `${made.id}.${c}`));
    expect(usage.reduce((sum, u) => sum + u.inputs, 0)).toBe(1234 - 24);
    expect(usage.every((u) => u.method === 'PUT' && u.path === '/byEmail')).toBe(true);

    const messages = await t.database.query<{ payload: string }>(
      `select m.payload from webhook_messages m join webhook_deliveries d on d.message_id = m.id
       where d.endpoint_id = $1`,
      [hook.id],
    );
    expect(messages).toHaveLength(1);
    const event = JSON.parse(messages[0]!.payload);
    expect(event).toMatchObject({
      type: 'job.completed',
      data: { id: made.id, status: 'completed', rows: { total: 1234, done: 1234, matched: 173, failed: 24 } },
    });
    expect(event.data.resultUrl).toBe(new URL(`/v2/jobs/${made.id}/result`, t.config.publicUrl).href);
  });

  it('answers a row holding a NUL as the PUT does: its own error, the rows after it looked up', async () => {
    const { t } = w;
    const csv = `${await emailCsv(t, 30)}r30,a\u0000b@example.com\nr31,someone@example.com\n`;
    const made = await createJob(t, ada.auth, csv);
    await t.app.jobs.runOnce();
    expect(await getJob(t, ada.auth, made.id)).toMatchObject({ status: 'completed', rows: { done: 32, failed: 1 } });
    const result = await getResult(t, ada.auth, made.id);
    expect(result.body).toBe(await putReply(t, ada.auth, csv));
    expect(result.body).toContain('line 32: ');
  });

  it('writes JSON lines when asked, one a row, with the options the PUT takes', async () => {
    const { t } = w;
    const csv = await emailCsv(t, 60);
    const made = await createJob(t, ada.auth, csv, 'endpoint=byEmail&format=jsonl&limit=1&minScore=50');
    expect(made.options).toEqual({ limit: 1, minScore: 50 });
    await t.app.jobs.runOnce();
    const result = await getResult(t, ada.auth, made.id);
    expect(result.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = result.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(60);
    expect(lines[0]).toMatchObject({ line: 2, input: { ref: 'r0' }, error: null });
    expect(lines[0].identities).toHaveLength(1);
    expect(lines[49]).toMatchObject({ line: 51, identities: [], error: expect.stringMatching(/^line 51: /) });
  });

  it('lists the jobs its viewer may see: a member their own, an administrator the organization’s', async () => {
    const { t } = w;
    const list = await t.app.inject({ method: 'GET', url: '/v2/jobs?limit=1', headers: { authorization: ada.auth } });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().jobs).toHaveLength(1);
    const next = list.json().next as string;
    const page = await t.app.inject({
      method: 'GET',
      url: `/v2/jobs?limit=100&before=${next}`,
      headers: { authorization: ada.auth },
    });
    expect(page.json().jobs.length).toBeGreaterThan(0);
    expect(page.json().jobs.map((j: { id: string }) => j.id)).not.toContain(next);
    const other = await customer(t);
    const none = await t.app.inject({ method: 'GET', url: '/v2/jobs', headers: { authorization: other.auth } });
    expect(none.json()).toEqual({ jobs: [], next: null });
  });
});

describe('refusals', () => {
  const problem = async (csv: string, query: string, status = 400) => {
    const res = await postJob(w.t, ada.auth, csv, query);
    expect(res.statusCode, res.body).toBe(status);
    return res.json().error as string;
  };

  it('refuses a bad header, an unknown endpoint, template or format, an empty CSV and a body that is not CSV', async () => {
    const before = await w.t.database.query<{ n: number }>('select count(*)::int as n from bulk_jobs');
    expect(await problem('name,city\nAda,Paris\n', 'endpoint=byEmail')).toMatch(/names no input of byEmail/);
    expect(await problem('email,email\na@b.c,d@e.f\n', 'endpoint=byEmail')).toMatch(/appears more than once/);
    expect(await problem('email\n', 'endpoint=byNothing')).toMatch(/not a lookup endpoint/);
    expect(await problem('email\n', '')).toMatch(/not a lookup endpoint/);
    expect(await problem('email\na@b.c\n', 'endpoint=byEmail&template=99999999')).toMatch(/template/i);
    expect(await problem('email\na@b.c\n', 'endpoint=byEmail&format=xml')).toContain(JOB_MESSAGES.format);
    expect(await problem('email\na@b.c\n', 'endpoint=byEmail&colour=red')).toMatch(/colour is not an option/);
    expect(await problem('email\n', 'endpoint=byEmail')).toContain(JOB_MESSAGES.empty);
    const json = await w.t.app.inject({
      method: 'POST',
      url: '/v2/jobs?endpoint=byEmail',
      headers: { authorization: ada.auth, 'content-type': 'application/json' },
      payload: { email: 'a@b.c' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe(JOB_MESSAGES.body);
    const xml = await w.t.app.inject({
      method: 'POST',
      url: '/v2/jobs?endpoint=byEmail',
      headers: { authorization: ada.auth, 'content-type': 'application/xml' },
      payload: '<email>a@b.c</email>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().error).toBe('This content type is not supported here.');
    const unsigned = await w.t.app.inject({
      method: 'POST',
      url: '/v2/jobs?endpoint=byEmail',
      headers: { authorization: 'Bearer not-a-key', 'content-type': 'text/csv' },
      payload: 'email\n',
    });
    expect(unsigned.statusCode).toBe(401);
    const after = await w.t.database.query<{ n: number }>('select count(*)::int as n from bulk_jobs');
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("answers 404 for another organization's job, or a colleague's to a member", async () => {
    const { t } = w;
    const made = await createJob(t, ada.auth, 'email\na@b.example\n');
    const stranger = await customer(t);
    for (const url of [`/v2/jobs/${made.id}`, `/v2/jobs/${made.id}/result`, '/v2/jobs/job_0123']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: stranger.auth } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe(JOB_MESSAGES.notFound);
    }
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v2/jobs/${made.id}/cancel`,
      headers: { authorization: stranger.auth },
    });
    expect(cancel.statusCode).toBe(404);
    await t.app.jobs.runOnce();
  });

  it('cancels a job not ended, which then runs no more; a second cancel is 409', async () => {
    const { t } = w;
    const made = await createJob(t, ada.auth, await emailCsv(t, 700));
    const cancel = () =>
      t.app.inject({ method: 'POST', url: `/v2/jobs/${made.id}/cancel`, headers: { authorization: ada.auth } });
    const first = await cancel();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().job).toMatchObject({ status: 'cancelled', rows: { done: 0 } });
    // Its input is gone at once and its result expires as any ended job's does (the retention deletes it then).
    const days = (Date.parse(first.json().job.expiresAt) - Date.parse(first.json().job.finishedAt)) / 86_400_000;
    expect(Math.round(days)).toBe(7);
    const inputs = await t.database.query<{ n: number }>(
      'select count(*)::int as n from bulk_job_inputs i join bulk_jobs j on j.id = i.job_id where j.public_id = $1',
      [made.id],
    );
    expect(inputs[0]!.n).toBe(0);
    expect(await t.app.jobs.runOnce()).toBe(0);
    const again = await cancel();
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(JOB_MESSAGES.ended('cancelled'));
    expect(await usageOf(t, made.id)).toEqual([]);
    // What it answered (nothing) can be downloaded.
    expect((await getResult(t, ada.auth, made.id)).statusCode).toBe(200);
  });

  it('fails a job whose key was revoked before it ran, with the reason', async () => {
    const { t } = w;
    const bob = await customer(t);
    const made = await createJob(t, bob.auth, await emailCsv(t, 10));
    const keyId = bob.auth.slice('Bearer '.length, 'Bearer '.length + 16);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/v2/keys/${keyId}`,
      headers: { cookie: bob.cookie, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    await t.app.jobs.runOnce();
    const job = await t.database.query<{ status: string; error: string; rows_done: number }>(
      'select status, error, rows_done from bulk_jobs where public_id = $1',
      [made.id],
    );
    expect(job).toEqual([{ status: 'failed', error: KEY_GONE, rows_done: 0 }]);
    expect(await usageOf(t, made.id)).toEqual([]);
  });

  it('answers 410 for a result past its time, deleted by the retention', async () => {
    const { t } = w;
    const made = await createJob(t, ada.auth, await emailCsv(t, 20));
    await t.app.jobs.runOnce();
    await t.database.db.execute(
      sql`update bulk_jobs set expires_at = now() - interval '1 minute' where public_id = ${made.id}`,
    );
    const { pruneJobs } = await import('./retention');
    expect(await pruneJobs(t.database)).toBeGreaterThan(0);
    const gone = await getResult(t, ada.auth, made.id);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ code: 'gone', error: JOB_MESSAGES.expired(7) });
    const left = await t.database.query<{ n: number }>(
      'select count(*)::int as n from bulk_job_results r join bulk_jobs j on j.id = r.job_id where j.public_id = $1',
      [made.id],
    );
    expect(left[0]!.n).toBe(0);
  });
});
