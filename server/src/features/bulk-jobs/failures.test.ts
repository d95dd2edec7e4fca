/**
 * How a job fails (decision 0068): a template that fails on a later chunk's records ends the job with its message,
 * the chunks before it answered and billed, and the failing chunk's lookups billed as the PUT bills a template's
 * failure (a 422 usage row) in the same transaction; a chunk whose rows are gone ends the job rather than being
 * retried for ever. Neither is tried again.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load, person, uniqueEmail } from '../identities/test-people';
import { createTemplate } from '../templates/repo';
import { INPUT_LOST } from './chunk';
import { type Customer, createJob, customer, getJob, type JobsWorld, jobsWorld, usageOf } from './test-support';

let w: JobsWorld;
let ada: Customer;
beforeAll(async () => {
  w = await jobsWorld('bulk_jobs_failures');
  ada = await customer(w.t, 'admin');
});
afterAll(() => w.close());

describe('a job', () => {
  it('fails when its template fails on a later chunk, billed for every lookup it ran', async () => {
    const { t } = w;
    const plain = person();
    const boom = { ...person(), lastName: 'Boom' };
    await load(t.database, plain, boom);
    const template = await createTemplate(t.database, {
      name: 'Fails on Boom',
      organizationId: ada.organizationId,
      createdBy: ada.userId,
      expression: '{ "n": lastName = "Boom" ? $number("not a number") : 1 }',
      publish: true,
    });
    // Two chunks of 500 rows: the first finds only the plain person, the second the one the template fails on.
    let csv = 'ref,email\n';
    for (let i = 0; i < 1000; i++) {
      const email = i === 0 ? plain.emails[0]!.address : i === 700 ? boom.emails[0]!.address : uniqueEmail();
      csv += `r${i},${email}\n`;
    }
    const made = await createJob(t, ada.auth, csv, `endpoint=byEmail&template=${template.id}`);

    await t.app.jobs.runOnce();
    const job = await getJob(t, ada.auth, made.id);
    expect(job).toMatchObject({ status: 'failed', rows: { total: 1000, done: 500, matched: 1 }, identities: 2 });
    expect(job.error).toMatch(new RegExp(`^Template ${template.id} \\(Fails on Boom, version 1\\) failed: .+`));
    const usage = await t.database.query<{ request_id: string; status: number; inputs: number; cost: string }>(
      `select request_id, status, inputs, cost::text as cost from usage where request_id like $1 order by request_id`,
      [`${made.id}.%`],
    );
    expect(usage.map(({ request_id, status, inputs }) => ({ request_id, status, inputs }))).toEqual([
      { request_id: `${made.id}.0`, status: 200, inputs: 500 },
      { request_id: `${made.id}.1`, status: 422, inputs: 500 },
    ]);
    // The job's cost is what its usage rows cost.
    const billed = usage.reduce((sum, u) => sum + Number(u.cost), 0);
    expect(Number(job.cost)).toBeCloseTo(billed, 6);
    // The lookups of the failed chunk are in the audit trail, as a PUT's are.
    const audited = await t.database.query<{ n: number }>(
      `select count(*)::int as n from lookup_audit where request_id = $1`,
      [`${made.id}.1`],
    );
    expect(audited[0]!.n).toBe(500);

    expect(await t.app.jobs.runOnce()).toBe(0);
    expect(await usageOf(t, made.id)).toHaveLength(2);
  });

  it('fails when the rows of a chunk are gone, rather than trying again for ever', async () => {
    const { t } = w;
    let csv = 'ref,email\n';
    for (let i = 0; i < 1200; i++) csv += `r${i},${uniqueEmail()}\n`;
    const made = await createJob(t, ada.auth, csv);
    await t.database.db.execute(
      sql`delete from bulk_job_inputs where chunk = 1 and job_id = (select id from bulk_jobs where public_id = ${made.id})`,
    );
    await t.app.jobs.runOnce();
    const job = await getJob(t, ada.auth, made.id);
    expect(job).toMatchObject({ status: 'failed', error: INPUT_LOST, rows: { done: 500 } });
    expect(await usageOf(t, made.id)).toHaveLength(1);
    expect(await t.app.jobs.runOnce()).toBe(0);
  });
});
