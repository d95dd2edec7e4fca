/**
 * Bulk jobs' retention (decision 0068): a job's result (and what is left of its input) is deleted once its
 * `expires_at` (JOB_RESULT_DAYS after it ended) has passed; the job itself stays, so its progress still reads and
 * its result answers 410. An upload abandoned half way (its process died) is deleted after a day. A stored upload
 * (stored-uploads.ts) is deleted once expired, unless a job made from it has not ended. A thousand rows
 * at a time, rows another process is deleting skipped (SKIP LOCKED), so every process may run it at once.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

export const RETENTION_BATCH = 1000;
/** How often each process prunes. */
export const RETENTION_EVERY_MS = 60 * 60 * 1000;
/** An upload not finished in this long was abandoned. */
export const ABANDONED_UPLOAD_MS = 86_400_000;

async function pruneChunks(database: Database, table: 'bulk_job_results' | 'bulk_job_inputs', now: Date) {
  const result = (await database.db.execute(sql`
    delete from ${sql.raw(table)} where (job_id, chunk) in (
      select c.job_id, c.chunk from ${sql.raw(table)} c join bulk_jobs j on j.id = c.job_id
      where j.expires_at < ${now.toISOString()}::timestamptz
      limit ${RETENTION_BATCH}
      for update of c skip locked
    ) returning 1`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}

/** Deletes what the retention no longer keeps, as of `now`; answers how many rows. */
export async function pruneJobs(
  database: Database,
  now: Date = new Date(),
  stopping: () => boolean = () => false,
): Promise<number> {
  let deleted = 0;
  for (const table of ['bulk_job_results', 'bulk_job_inputs'] as const) {
    for (;;) {
      const count = await pruneChunks(database, table, now);
      deleted += count;
      if (count < RETENTION_BATCH || stopping()) break;
    }
  }
  const abandoned = (await database.db.execute(sql`
    delete from bulk_jobs where status = 'uploading'
      and created_at < ${new Date(now.getTime() - ABANDONED_UPLOAD_MS).toISOString()}::timestamptz
    returning 1`)) as unknown as { rows: unknown[] };
  // Stored uploads: expired ones no job still reads, and ones abandoned half way. (A job made from one in the instant
  // it expires, after this statement's snapshot, would find its rows gone and fail, asking for the CSV again.)
  const uploads = (await database.db.execute(sql`
    delete from csv_uploads u where id in (
      select id from csv_uploads where (expires_at < ${now.toISOString()}::timestamptz
        or (status = 'uploading'
          and created_at < ${new Date(now.getTime() - ABANDONED_UPLOAD_MS).toISOString()}::timestamptz))
      limit ${RETENTION_BATCH}
    ) and not exists (select 1 from bulk_jobs j where j.upload_id = u.id and j.status in ('queued', 'running'))
    returning 1`)) as unknown as { rows: unknown[] };
  return deleted + abandoned.rows.length + uploads.rows.length;
}
