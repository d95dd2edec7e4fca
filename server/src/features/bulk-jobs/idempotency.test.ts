/**
 * POST /v2/jobs with an Idempotency-Key (as lookups take one): a retry of the same upload, a balancer's or a
 * client's, gets the first reply back and makes no second job, so nothing is answered or billed twice; the key with
 * another CSV is 422; a first upload that was refused keeps nothing, so the key may be used again.
 */
import { IDEMPOTENCY_MESSAGES } from '@tessera/common/lookups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Customer, customer, emailCsv, type JobsWorld, jobsWorld, usageOf } from './test-support';

let w: JobsWorld;
let ada: Customer;
beforeAll(async () => {
  w = await jobsWorld('bulk_jobs_idempotency');
  ada = await customer(w.t, 'admin');
});
afterAll(() => w.close());

const post = (csv: string, key: string) =>
  w.t.app.inject({
    method: 'POST',
    url: '/v2/jobs?endpoint=byEmail',
    headers: { authorization: ada.auth, 'content-type': 'text/csv', 'idempotency-key': key },
    payload: csv,
  });

async function jobIds(): Promise<string[]> {
  const res = await w.t.app.inject({ method: 'GET', url: '/v2/jobs', headers: { authorization: ada.auth } });
  return (res.json().jobs as { id: string }[]).map((j) => j.id);
}

describe('a job made with an Idempotency-Key', () => {
  it('is made once however often the upload is retried, and run and billed once', async () => {
    const csv = await emailCsv(w.t, 1200);
    const before = await jobIds();
    const first = await post(csv, 'upload-1');
    expect(first.statusCode, first.body).toBe(202);
    const again = await post(csv, 'upload-1');
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().job.id).toBe(first.json().job.id);
    expect(await jobIds()).toEqual([first.json().job.id, ...before]);

    expect(await w.t.app.jobs.runOnce()).toBe(3);
    expect(await usageOf(w.t, first.json().job.id)).toHaveLength(3);
  });

  it('refuses the key with another CSV (422), and keeps nothing of a refused first upload', async () => {
    const csv = await emailCsv(w.t, 10);
    expect((await post(csv, 'upload-2')).statusCode).toBe(202);
    const other = await post(`${csv}r-extra,someone@example.com\n`, 'upload-2');
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toBe(IDEMPOTENCY_MESSAGES.otherRequest);

    const before = await jobIds();
    const refused = await post('ref,nothing\nr1,x\n', 'upload-3');
    expect(refused.statusCode).toBe(400);
    expect(await jobIds()).toEqual(before);
    const retried = await post(csv, 'upload-3');
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a malformed key, naming the header', async () => {
    const res = await post(await emailCsv(w.t, 1), 'bad key with spaces');
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ path: 'headers.idempotency-key', message: IDEMPOTENCY_MESSAGES.key }]);
  });
});
