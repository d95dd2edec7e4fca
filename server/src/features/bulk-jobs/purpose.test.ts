/**
 * A bulk job's permissible purpose (issue 34 item 2): named at creation as a lookup names it (`purpose=`, the header
 * or the key's default), refused as a lookup is (403 under a contract that requires one), kept with the job and on
 * the audit rows of every row it looks up; a job whose contract no longer allows its purpose fails with the 403's
 * message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { makeCustomer, makeUser, signIn } from '../../test/harness';
import { createJob, emailCsv, getJob, type JobsWorld, jobsWorld, postJob } from './test-support';

let w: JobsWorld;
let auth: string;
let contractId: number;
let staff: string;
beforeAll(async () => {
  w = await jobsWorld('bulk_jobs_purpose');
  const { t } = w;
  const user = await makeCustomer(t.database, 'user', { contract: { purposes: ['fcra-employment'] } });
  const cookie = await signIn(t.app, user.email);
  const res = await consoleClient(() => t.app).post('/v2/keys', cookie, { name: 'Jobs' });
  const key = Object.values(res.json().keys)[0] as { id: string; secret: string };
  auth = `Bearer ${key.id}${key.secret}`;
  const [row] = await t.database.query<{ id: number }>('select id from contracts where organization_id = $1', [
    user.organizationId,
  ]);
  contractId = row!.id;
  staff = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});
afterAll(() => w.close());

const auditOf = (jobId: string) =>
  w.t.database.query<{ purpose: string | null; n: number }>(
    `select purpose, count(*)::int as n from lookup_audit where request_id like $1 group by purpose`,
    [`${jobId}.%`],
  );

describe('a bulk job under a contract that requires a purpose', () => {
  it('403 without one; with an allowed one, every row audited with it', async () => {
    const { t } = w;
    const csv = await emailCsv(t, 600);
    const refused = await postJob(t, auth, csv);
    expect([refused.statusCode, refused.json().error]).toEqual([
      403,
      'This lookup needs a permissible purpose. Your contract allows: fcra-employment. Name one with purpose= or the X-Permissible-Purpose header.',
    ]);
    const lacking = await postJob(t, auth, csv, 'endpoint=byEmail&purpose=dppa-insurance');
    expect([lacking.statusCode, lacking.json().error]).toEqual([
      403,
      'Your contract does not allow the permissible purpose dppa-insurance. It allows: fcra-employment.',
    ]);

    const made = await createJob(t, auth, csv, 'endpoint=byEmail&purpose=fcra-employment');
    expect(await t.app.jobs.runOnce()).toBe(2);
    expect((await getJob(t, auth, made.id)).status).toBe('completed');
    // Every row but the error rows (every 50th, not an e-mail) is a looked-up input.
    expect(await auditOf(made.id)).toEqual([{ purpose: 'fcra-employment', n: 588 }]);
    const [job] = await t.database.query<{ purpose: string }>('select purpose from bulk_jobs where public_id = $1', [
      made.id,
    ]);
    expect(job!.purpose).toBe('fcra-employment');
  });

  it('fails, with the 403’s message, once its contract no longer allows its purpose', async () => {
    const { t } = w;
    const made = await createJob(t, auth, await emailCsv(t, 10), 'endpoint=byEmail&purpose=fcra-employment');
    const changed = await consoleClient(() => t.app).put(`/v2/contracts/${contractId}`, staff, {
      purposes: ['dppa-insurance'],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await t.app.jobs.runOnce();
    const job = await getJob(t, auth, made.id);
    expect(job).toMatchObject({
      status: 'failed',
      error: 'Your contract does not allow the permissible purpose fcra-employment. It allows: dppa-insurance.',
    });
    expect(await auditOf(made.id)).toEqual([]);
  });
});
