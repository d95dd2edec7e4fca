/**
 * The runner's lease (decision 0068): a runner that dies mid-job leaves its lease to lapse, and then another takes the
 * job over from the last committed chunk; the dead one's late commit is refused. Every row is answered once and
 * billed once, the result being the PUT's reply to the same CSV all the same.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerOf, runChunk } from './chunk';
import { claimJob, LEASE_MS } from './runner';
import {
  type Customer,
  createJob,
  customer,
  emailCsv,
  getJob,
  getResult,
  type JobsWorld,
  jobsWorld,
  putReply,
  usageOf,
} from './test-support';

let w: JobsWorld;
let ada: Customer;
beforeAll(async () => {
  w = await jobsWorld('bulk_jobs_runner');
  ada = await customer(w.t);
});
afterAll(() => w.close());

describe('a job whose runner died', () => {
  it('is taken over once its lease lapses, from the last committed chunk, each row answered and billed once', async () => {
    const { t } = w;
    const lookups = t.app.jobs;
    const csv = await emailCsv(t, 1600);
    const made = await createJob(t, ada.auth, csv);

    // A runner claims it, commits one chunk, and dies (its lease held).
    const token = randomUUID();
    const claimed = (await claimJob(t.database, token, LEASE_MS))!;
    expect(claimed.public_id).toBe(made.id);
    const world = lookups.lookups;
    const caller = await callerOf(world, claimed);
    expect((await runChunk(world, claimed, token, LEASE_MS, caller)).committed).toBe(true);

    // While the lease holds, no other runner takes it.
    expect(await lookups.runOnce()).toBe(0);
    expect(await getJob(t, ada.auth, made.id)).toMatchObject({ status: 'running', rows: { done: 500 } });

    // The lease lapses (time passing, here by hand): another runner takes the job.
    const lapse = () =>
      t.database.db.execute(
        sql`update bulk_jobs set lease_until = now() - interval '1 second' where public_id = ${made.id}`,
      );
    await lapse();
    const second = await claimJob(t.database, randomUUID(), LEASE_MS);
    expect(second).toMatchObject({ public_id: made.id, chunks_done: 1 });

    // The first runner wakes and commits its next chunk: refused under its lost lease, nothing written.
    const late = await runChunk(world, { ...claimed, chunks_done: 1 }, token, LEASE_MS, caller);
    expect(late.committed).toBe(false);
    expect(await getJob(t, ada.auth, made.id)).toMatchObject({ rows: { done: 500 } });

    // The second dies as well; once its lease lapses the timer's runner finishes the job.
    await lapse();
    expect(await lookups.runOnce()).toBe(3);
    expect(await getJob(t, ada.auth, made.id)).toMatchObject({ status: 'completed', rows: { done: 1600 } });

    const result = await getResult(t, ada.auth, made.id);
    expect(result.body).toBe(await putReply(t, ada.auth, csv));
    const usage = await usageOf(t, made.id);
    expect(usage.map((u) => u.request_id)).toEqual([0, 1, 2, 3].map((c) => `${made.id}.${c}`));
    expect(usage.reduce((sum, u) => sum + u.inputs, 0)).toBe(1600 - 32);
  });

  it('keeps its lease while a chunk runs, and a runner that lost it stops at the next batch without committing', async () => {
    const { t } = w;
    const made = await createJob(t, ada.auth, await emailCsv(t, 400));
    const token = randomUUID();
    const claimed = (await claimJob(t.database, token, LEASE_MS))!;
    expect(claimed.public_id).toBe(made.id);
    const world = t.app.jobs.lookups;
    const caller = await callerOf(world, claimed);
    const leaseOf = async () =>
      (
        await t.database.query<{ until: string }>(
          'select lease_until::text as until from bulk_jobs where public_id = $1',
          [made.id],
        )
      )[0]!.until;

    // Another process took the job over (the lease lapsed, here by hand): with a lease this short the chunk checks it
    // between batches, finds it gone, and stops before looking up the rest or committing anything.
    await t.database.db.execute(sql`update bulk_jobs set lease_token = ${randomUUID()} where public_id = ${made.id}`);
    const lost = await runChunk(world, claimed, token, 0, caller);
    expect(lost).toEqual({ committed: false, rows: 0 });
    expect(await usageOf(t, made.id)).toEqual([]);

    // Under its own lease the same chunk renews it as it goes and commits.
    await t.database.db.execute(sql`update bulk_jobs set lease_token = ${token} where public_id = ${made.id}`);
    const before = await leaseOf();
    const done = await runChunk(world, claimed, token, 60_000, caller);
    expect(done.committed).toBe(true);
    expect(await leaseOf()).not.toBe(before);
    expect((await usageOf(t, made.id)).map((u) => u.request_id)).toEqual([`${made.id}.0`]);
  });
});
