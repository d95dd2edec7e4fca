/**
 * The bulk job operations of the OpenAPI document against the real app (issue 33 item 3), run by conformance.test.ts
 * with its `call`, which checks every reply against the document and keeps the successes as its examples. The app's
 * runner is off (test harness): the job is run here with runOnce.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';

type Call = (
  operationId: string,
  options: {
    params?: Record<string, string | number>;
    query?: Record<string, string>;
    csv?: string;
    headers?: Record<string, string>;
    payload?: string | Buffer;
  },
  expected?: number,
) => Promise<LightMyRequestResponse>;

export function describeJobs(
  call: Call,
  context: () => { t: TestApp; unsigned: string; bearer: Record<string, string>; emails: string[] },
): void {
  describe('bulk jobs, as documented', () => {
    it('starts, lists, reads, runs, downloads and cancels a job, and refuses as documented', async () => {
      const { t, unsigned, bearer, emails } = context();
      const csv = `ref,email\n${emails.map((e, i) => `crm-${i + 1},${e}`).join('\n')}\ncrm-9,nobody@example.com\n`;
      const made = await call('createJob', { query: { endpoint: 'byEmail' }, csv, headers: bearer }, 202);
      const id = made.json().job.id as string;
      await call('listJobs', { query: { limit: '10' }, headers: bearer }, 200);
      await call('getJobResult', { params: { id }, headers: bearer }, 409);
      await t.app.jobs.runOnce();
      await call('getJob', { params: { id }, headers: bearer }, 200);
      const result = await call('getJobResult', { params: { id }, headers: bearer }, 200);
      expect(result.body.split('\r\n')[0]).toMatch(/^ref,email,score,matchedOn,/);
      await call('cancelJob', { params: { id }, headers: bearer }, 409);
      const other = await call(
        'createJob',
        { query: { endpoint: 'byEmail', format: 'jsonl' }, csv, headers: bearer },
        202,
      );
      await call('cancelJob', { params: { id: other.json().job.id }, headers: bearer }, 200);

      await call('createJob', { query: { endpoint: 'byColour' }, csv, headers: bearer }, 400);
      await call('createJob', { query: { endpoint: 'byEmail' }, csv, headers: { authorization: 'Bearer nope' } }, 401);
      await call(
        'createJob',
        { query: { endpoint: 'byEmail' }, payload: '<x/>', headers: { ...bearer, 'content-type': 'application/xml' } },
        415,
      );
      await call('getJob', { params: { id: 'job_000000000000000000000000' }, headers: bearer }, 404);
      await call('listJobs', { query: { limit: '0' }, headers: bearer }, 400);
      await t.database.query(`update bulk_jobs set expires_at = now() - interval '1 minute' where public_id = $1`, [
        id,
      ]);
      await call('getJobResult', { params: { id }, headers: bearer }, 410);

      const signer = { cookie: unsigned, 'x-requested-with': 'XMLHttpRequest' };
      await call('createJob', { query: { endpoint: 'byEmail' }, csv, headers: signer }, 451);
      await call('listJobs', { headers: signer }, 451);
      await call('getJob', { params: { id }, headers: signer }, 451);
      await call('cancelJob', { params: { id }, headers: signer }, 451);
      await call('getJobResult', { params: { id }, headers: signer }, 451);
    });

    it('stores an upload, makes a job from it, lists, reads and deletes it, and refuses as documented', async () => {
      const { t, unsigned, bearer, emails } = context();
      const csv = `ref,email\n${emails.map((e, i) => `crm-${i + 1},${e}`).join('\n')}\n`;
      const made = await call('createUpload', { csv, headers: bearer }, 201);
      const id = made.json().upload.id as string;
      await call('listUploads', { query: { limit: '10' }, headers: bearer }, 200);
      await call('getUpload', { params: { id }, headers: bearer }, 200);
      const job = await call('createJob', { query: { endpoint: 'byEmail', upload: id }, headers: bearer }, 202);
      await call('deleteUpload', { params: { id }, headers: bearer }, 409);
      await call('cancelJob', { params: { id: job.json().job.id }, headers: bearer }, 200);
      await call('deleteUpload', { params: { id }, headers: bearer }, 200);
      await call('getUpload', { params: { id }, headers: bearer }, 404);
      await call('createJob', { query: { endpoint: 'byEmail', upload: id }, headers: bearer }, 404);

      await call('createUpload', { csv: 'ref,email\n', headers: bearer }, 400);
      await call('createUpload', { csv, headers: { authorization: 'Bearer nope' } }, 401);
      await call('listUploads', { query: { limit: '0' }, headers: bearer }, 400);
      expect(await t.database.query('select 1 from csv_uploads where public_id = $1', [id])).toEqual([]);

      const signer = { cookie: unsigned, 'x-requested-with': 'XMLHttpRequest' };
      await call('createUpload', { csv, headers: signer }, 451);
      await call('listUploads', { headers: signer }, 451);
      await call('getUpload', { params: { id }, headers: signer }, 451);
      await call('deleteUpload', { params: { id }, headers: signer }, 451);
    });
  });
}
