/**
 * A job runs, and its result is read, with the rights people have now (review of issue 33): a maker narrowed to fewer
 * record types mid-job gets what their lookups would get; a maker deactivated ends the job; a result is downloaded only
 * by someone who may see every record type it may hold, an administrator of the organization included.
 */
import { JOB_MESSAGES } from '@tessera/common/jobs';
import { RECORD_TYPES } from '@tessera/common/record-types';
import type { Role } from '@tessera/common/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { makeUser, signIn, type TestApp } from '../../test/harness';
import { typesBeyond } from './standing';
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
} from './test-support';

let w: JobsWorld;
let ada: Customer;
beforeAll(async () => {
  w = await jobsWorld('bulk_jobs_standing');
  ada = await customer(w.t, 'admin');
});
afterAll(() => w.close());

const api = () => consoleClient(() => w.t.app);

/** A colleague of `of` in the same organization, with an API key of their own. */
async function colleague(t: TestApp, of: Customer, role: Role, allowedRecordTypes?: string[]): Promise<Customer> {
  const user = await makeUser(t.database, role, of.organizationId, { allowedRecordTypes });
  const cookie = await signIn(t.app, user.email);
  const res = await api().post('/v2/keys', cookie, { name: 'Jobs' });
  expect(res.statusCode, res.body).toBe(201);
  const key = Object.values(res.json().keys)[0] as { id: string; secret: string };
  return { organizationId: of.organizationId, userId: user.id, cookie, auth: `Bearer ${key.id}${key.secret}` };
}

const jobRow = (id: string) =>
  w.t.database.query<{ status: string; error: string | null }>(
    'select status, error from bulk_jobs where public_id = $1',
    [id],
  );

describe('a job runs with its maker’s rights as they are now', () => {
  it('gives a maker narrowed to e-mails after making it what their lookups now get', async () => {
    const { t } = w;
    const mia = await colleague(t, ada, 'user');
    const csv = await emailCsv(t, 600);
    const whole = await putReply(t, mia.auth, csv);
    const made = await createJob(t, mia.auth, csv);
    const narrowed = await api().put(`/v2/users/${mia.userId}`, ada.cookie, { allowedRecordTypes: ['emails'] });
    expect(narrowed.statusCode, narrowed.body).toBe(200);

    await t.app.jobs.runOnce();
    expect((await getJob(t, mia.auth, made.id)).status).toBe('completed');
    const result = await getResult(t, mia.auth, made.id);
    expect(result.statusCode, result.body).toBe(200);
    const now = await putReply(t, mia.auth, csv);
    expect(now).not.toBe(whole);
    expect(result.body).toBe(now);
  });

  it('fails the job of a maker deactivated before it ran, saying so', async () => {
    const { t } = w;
    const max = await colleague(t, ada, 'user');
    const made = await createJob(t, max.auth, await emailCsv(t, 10));
    const off = await api().put(`/v2/users/${max.userId}`, ada.cookie, { isActive: false });
    expect(off.statusCode, off.body).toBe(200);
    await t.app.jobs.runOnce();
    expect(await jobRow(made.id)).toEqual([{ status: 'failed', error: JOB_MESSAGES.makerInactive }]);
  });
});

describe('a result is read only by someone who may see all it may hold', () => {
  it('refuses an administrator allowed fewer record types than the maker, who may still follow the job', async () => {
    const { t } = w;
    const kim = await colleague(t, ada, 'admin', ['emails']);
    const made = await createJob(t, ada.auth, await emailCsv(t, 10));
    await t.app.jobs.runOnce();
    expect((await getJob(t, kim.auth, made.id)).status).toBe('completed');

    const refused = await getResult(t, kim.auth, made.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(JOB_MESSAGES.resultTypes(RECORD_TYPES.filter((type) => type !== 'emails')));
    const console = await api().get(`/v2/jobs/${made.id}/result`, kim.cookie);
    expect(console.statusCode).toBe(403);
    expect((await getResult(t, ada.auth, made.id)).statusCode).toBe(200);
  });

  it('counts what the chunks were answered with: a maker widened after making it holds more than they had', async () => {
    const { t } = w;
    const kim = await colleague(t, ada, 'admin', ['emails']);
    const ned = await colleague(t, ada, 'user', ['emails']);
    const made = await createJob(t, ned.auth, await emailCsv(t, 10));
    const widened = await api().put(`/v2/users/${ned.userId}`, ada.cookie, { allowedRecordTypes: [] });
    expect(widened.statusCode, widened.body).toBe(200);
    await t.app.jobs.runOnce();
    expect((await getResult(t, ned.auth, made.id)).statusCode).toBe(200);
    const refused = await getResult(t, kim.auth, made.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(JOB_MESSAGES.resultTypes(RECORD_TYPES.filter((type) => type !== 'emails')));
  });

  it('refuses the maker too, once narrowed after the job ended', async () => {
    const { t } = w;
    const lea = await colleague(t, ada, 'user');
    const made = await createJob(t, lea.auth, await emailCsv(t, 10));
    await t.app.jobs.runOnce();
    expect((await getResult(t, lea.auth, made.id)).statusCode).toBe(200);
    const narrowed = await api().put(`/v2/users/${lea.userId}`, ada.cookie, { allowedRecordTypes: ['phones'] });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    const refused = await getResult(t, lea.auth, made.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(JOB_MESSAGES.resultTypes(RECORD_TYPES.filter((type) => type !== 'phones')));
  });
});

describe('typesBeyond', () => {
  it('names the record types a result holds that a reader may not see; empty grants all, other names none', () => {
    expect(typesBeyond([], ['emails', 'phones'])).toEqual([]);
    expect(typesBeyond(['emails'], [])).toEqual([]);
    expect(typesBeyond(['emails'], ['emails'])).toEqual([]);
    expect(typesBeyond(['emails', 'phones'], ['phones'])).toEqual([]);
    expect(typesBeyond(['emails'], ['emails', 'phones'])).toEqual(['phones']);
    expect(typesBeyond(['none'], ['emails'])).toEqual(['emails']);
  });
});
