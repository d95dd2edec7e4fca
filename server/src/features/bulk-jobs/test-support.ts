/**
 * Test support for bulk jobs: an app on a database of the file's own (its runner would otherwise take other files'
 * jobs from the shared one), a customer with an API key, the input CSVs, and calls with that key.
 */
import type { Job } from '@tessera/common/jobs';
import { expect } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, signIn, type TestApp } from '../../test/harness';
import { load, person, uniqueEmail } from '../identities/test-people';
import { type OwnDatabase, ownDatabase } from '../webhooks/test-support';

export interface JobsWorld {
  t: TestApp;
  own: OwnDatabase;
  close(): Promise<void>;
}

/** An app with its own database; chunks of 500 rows, so a small CSV spans several. */
export async function jobsWorld(label: string, env: Record<string, string> = {}): Promise<JobsWorld> {
  const own = await ownDatabase(label);
  const t = await buildTestApp({ database: own.database, env: { JOB_CHUNK_ROWS: '500', ...env } });
  return {
    t,
    own,
    async close() {
      await t.app.close();
      await own.drop();
    },
  };
}

export interface Customer {
  organizationId: number;
  userId: number;
  cookie: string;
  /** The Authorization header of an API key of theirs. */
  auth: string;
}

export async function customer(t: TestApp, role: 'user' | 'admin' = 'user'): Promise<Customer> {
  const user = await makeCustomer(t.database, role);
  const cookie = await signIn(t.app, user.email);
  const res = await consoleClient(() => t.app).post('/v2/keys', cookie, { name: 'Jobs' });
  expect(res.statusCode, res.body).toBe(201);
  const key = Object.values(res.json().keys)[0] as { id: string; secret: string };
  return { organizationId: user.organizationId!, userId: user.id, cookie, auth: `Bearer ${key.id}${key.secret}` };
}

/**
 * A CSV of `rows` rows for byEmail: a passed-through id column, every 7th row a loaded person's address, every 50th
 * row not an e-mail (an error row), the rest addresses nobody has.
 */
export async function emailCsv(t: TestApp, rows: number): Promise<string> {
  const people = Array.from({ length: 3 }, () => person());
  await load(t.database, ...people);
  let csv = 'ref,email\n';
  for (let i = 0; i < rows; i++) {
    const email = i % 50 === 49 ? 'not an address' : i % 7 === 0 ? people[i % 3]!.emails[0]!.address : uniqueEmail();
    csv += `r${i},${email}\n`;
  }
  return csv;
}

export async function postJob(t: TestApp, auth: string, csv: string, query = 'endpoint=byEmail') {
  return t.app.inject({
    method: 'POST',
    url: `/v2/jobs?${query}`,
    headers: { authorization: auth, 'content-type': 'text/csv' },
    payload: csv,
  });
}

export async function createJob(t: TestApp, auth: string, csv: string, query?: string): Promise<Job> {
  const res = await postJob(t, auth, csv, query);
  expect(res.statusCode, res.body).toBe(202);
  return res.json().job as Job;
}

export async function getJob(t: TestApp, auth: string, id: string): Promise<Job> {
  const res = await t.app.inject({ method: 'GET', url: `/v2/jobs/${id}`, headers: { authorization: auth } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().job as Job;
}

export const getResult = (t: TestApp, auth: string, id: string) =>
  t.app.inject({ method: 'GET', url: `/v2/jobs/${id}/result`, headers: { authorization: auth } });

/** The streamed PUT's reply to the same CSV. */
export async function putReply(t: TestApp, auth: string, csv: string, endpoint = 'byEmail'): Promise<string> {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/v2/identities/${endpoint}`,
    headers: { authorization: auth, 'content-type': 'text/csv' },
    payload: csv,
  });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.body;
}

/** The usage rows of a job: request id, inputs and cost. */
export const usageOf = (t: TestApp, jobId: string) =>
  t.database.query<{ request_id: string; inputs: number; identities: number; method: string; path: string }>(
    `select request_id, inputs, identities, method, path from usage where request_id like $1 order by request_id`,
    [`${jobId}.%`],
  );
