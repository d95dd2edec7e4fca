/**
 * Bulk jobs' rows (migration 0038, decision 0068): the job, its input as chunks of parsed CSV records, its result
 * as one piece per finished chunk. Plain statements and short transactions: nothing held on a session, so the same
 * SQL runs through PgBouncer in transaction mode.
 */
import { randomBytes } from 'node:crypto';
import type { Job, JobFormat, JobStatus } from '@tessera/common/jobs';
import type { LookupEndpoint } from '@tessera/common/lookups';
import type { Purpose } from '@tessera/common/purposes';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { rows as rowsOf } from '../../db/rows';
import type { LookupCaller } from '../identities/caller';
import type { Header } from '../identities/csv-rows';
import type { LookupOptionsInput } from '../identities/options';

export interface JobRow {
  id: number;
  public_id: string;
  organization_id: number | null;
  user_id: number;
  key_id: string | null;
  /**
   * The caller as the job was made, with the permissible purpose it named (issue 34; absent before it), and the
   * record types its chunks were answered with so far (their union; absent before the first).
   */
  caller: LookupCaller & { purpose?: Purpose | null; resultTypes?: string[] };
  endpoint: LookupEndpoint;
  options: LookupOptionsInput;
  format: JobFormat;
  header: Header;
  columns: string[] | null;
  status: JobStatus;
  total_rows: number;
  total_chunks: number;
  chunks_done: number;
  rows_done: number;
  rows_matched: number;
  rows_failed: number;
  identities: number;
  cost: string;
  busy_ms: number | string;
  error: string | null;
  lease_token: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  expires_at: Date | string | null;
  /** The stored upload it reads its rows from (stored-uploads.ts), or null when its rows are its own. */
  upload_id: number | string | null;
}

export const newJobId = () => `job_${randomBytes(12).toString('hex')}`;

/**
 * A new job: `uploading` until its own rows are written (queueJob), or, made from a stored upload, `queued` at once
 * with the upload's totals, reading the upload's rows in place.
 */
export async function insertJob(
  executor: Executor,
  job: {
    publicId: string;
    caller: LookupCaller & { purpose?: Purpose | null };
    endpoint: LookupEndpoint;
    options: LookupOptionsInput;
    format: JobFormat;
    header: Header;
    fromUpload?: { id: number | string; rows: number; chunks: number };
  },
): Promise<number> {
  const { caller, fromUpload: from } = job;
  const [row] = await rowsOf<{ id: number | string }>(
    executor,
    sql`insert into bulk_jobs (public_id, organization_id, user_id, key_id, caller, endpoint, options, format, header,
        status, total_rows, total_chunks, upload_id, purpose)
      values (${job.publicId}, ${caller.organizationId}, ${caller.userId}, ${caller.keyId}, ${JSON.stringify(caller)},
        ${job.endpoint}, ${JSON.stringify(job.options)}, ${job.format}, ${JSON.stringify(job.header)},
        ${from ? 'queued' : 'uploading'}, ${from?.rows ?? 0}, ${from?.chunks ?? 0}, ${from?.id ?? null},
        ${caller.purpose ?? null})
      returning id`,
  );
  return Number(row!.id);
}

export async function insertInputChunk(database: Database, jobId: number, chunk: number, records: string) {
  await database.db.execute(
    sql`insert into bulk_job_inputs (job_id, chunk, records) values (${jobId}, ${chunk}, ${records})`,
  );
}

/** The upload is whole: the job waits for a runner. */
export async function queueJob(database: Database, jobId: number, totalRows: number, totalChunks: number) {
  await database.db.execute(sql`update bulk_jobs set status = 'queued', total_rows = ${totalRows},
    total_chunks = ${totalChunks} where id = ${jobId} and status = 'uploading'`);
}

export async function deleteJob(database: Database, jobId: number) {
  await database.db.execute(sql`delete from bulk_jobs where id = ${jobId}`);
}

/** Who may see a job: its maker, or an administrator of its organization; nobody of another organization. */
export interface Viewer {
  userId: number;
  organizationId: number | null;
  /** An administrator (or more) of the organization sees all its jobs. */
  wholeOrganization: boolean;
}

export const visibleTo = (viewer: Viewer) =>
  viewer.wholeOrganization && viewer.organizationId !== null
    ? sql`organization_id = ${viewer.organizationId}`
    : sql`user_id = ${viewer.userId} and organization_id is not distinct from ${viewer.organizationId}`;

export async function findJob(executor: Executor, viewer: Viewer, publicId: string): Promise<JobRow | null> {
  const [row] = await rowsOf<JobRow>(
    executor,
    sql`select * from bulk_jobs where public_id = ${publicId} and ${visibleTo(viewer)} and status <> 'uploading'`,
  );
  return row ?? null;
}

export async function listJobs(executor: Executor, viewer: Viewer, limit: number, before: number | null) {
  return rowsOf<JobRow>(
    executor,
    sql`select * from bulk_jobs where ${visibleTo(viewer)} and status <> 'uploading'
      ${before === null ? sql`` : sql`and id < ${before}`} order by id desc limit ${limit}`,
  );
}

/**
 * Ends a job not ended yet, as the runner ends one: its input deleted and its result kept `resultDays`, so the
 * retention removes what it answered (people's data) like any other job's. Null when it had ended (or is not there).
 */
export async function cancelJob(executor: Executor, jobId: number, resultDays: number): Promise<JobRow | null> {
  const [row] = await rowsOf<JobRow>(
    executor,
    sql`update bulk_jobs set status = 'cancelled', finished_at = now(),
        expires_at = now() + ${resultDays} * interval '1 day', lease_token = null, lease_until = null
      where id = ${jobId} and status in ('queued', 'running') returning *`,
  );
  if (row) await executor.execute(sql`delete from bulk_job_inputs where job_id = ${jobId}`);
  return row ?? null;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** A job as the API answers it; its rate and time left from the time spent looking up (not waiting for a runner). */
export function toJob(row: JobRow): Job {
  const busySeconds = Number(row.busy_ms) / 1000;
  const rate = row.rows_done > 0 && busySeconds > 0 ? row.rows_done / busySeconds : null;
  const running = row.status === 'running' || row.status === 'queued';
  const ended = row.status === 'completed' || row.status === 'failed' || row.status === 'cancelled';
  return {
    id: row.public_id,
    status: row.status,
    endpoint: row.endpoint,
    format: row.format,
    options: row.options as Record<string, unknown>,
    rows: { total: row.total_rows, done: row.rows_done, matched: row.rows_matched, failed: row.rows_failed },
    identities: row.identities,
    cost: Number(row.cost).toFixed(6),
    rowsPerSecond: rate === null ? null : Math.round(rate * 10) / 10,
    etaSeconds: running && rate !== null ? Math.ceil((row.total_rows - row.rows_done) / rate) : null,
    error: row.error,
    createdAt: iso(row.created_at)!,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    expiresAt: iso(row.expires_at),
    resultUrl: ended ? `/v2/jobs/${row.public_id}/result` : null,
  };
}
