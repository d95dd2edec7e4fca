/**
 * Stored uploads (migration 0040, docs/jobs.md): a CSV read as it arrives and kept as chunks of parsed records,
 * exactly as a job's own input is kept (upload.ts), for JOB_UPLOAD_HOURS, so that jobs can be made from it by
 * reference. Its header is only checked to be one here; each job checks it against its endpoint. A job made from an
 * upload reads its chunks in place, and the upload is not deleted (by its owner or the retention) while such a job
 * has not ended. Seen, used and deleted by their maker, or by an administrator of their organization.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type StoredUpload, UPLOAD_MESSAGES } from '@tessera/common/uploads';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { rows as rowsOf } from '../../db/rows';
import { BadRequest } from '../../http/errors';
import type { LookupCaller } from '../identities/caller';
import { type CsvRecord, csvRecords } from '../identities/csv-input';
import { hashing } from '../identities/idempotency';
import { writeChunks } from './paging';
import { type Viewer, visibleTo } from './repo';
import { encodeRecords } from './upload';

export interface UploadRow {
  id: number | string;
  public_id: string;
  header: string[];
  status: 'uploading' | 'ready';
  total_rows: number;
  total_chunks: number;
  bytes: number | string;
  sha256: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

export const newUploadId = () => `upl_${randomBytes(12).toString('hex')}`;

const refused = (message: string) => new BadRequest(message, [{ path: 'body', message }]);

/** Counts the bytes of a body as they are read. */
async function* counted(body: AsyncIterable<Buffer>, count: { bytes: number }): AsyncGenerator<Buffer> {
  for await (const chunk of body) {
    count.bytes += chunk.length;
    yield chunk;
  }
}

/**
 * Reads a CSV body into a new upload, ready once whole; its row. A body with no header row, or no rows under it,
 * is refused (400) and leaves nothing.
 */
export async function storeCsvUpload(
  database: Database,
  upload: { caller: LookupCaller; body: AsyncIterable<Buffer>; chunkRows: number; hours: number },
): Promise<UploadRow> {
  const digest = createHash('sha256');
  const size = { bytes: 0 };
  const records = csvRecords(counted(hashing(upload.body, digest), size))[Symbol.asyncIterator]();
  const first = (await records.next()).value as CsvRecord | undefined;
  if (!first || first.error !== undefined || first.fields.every((field) => field.trim() === '')) {
    throw refused(UPLOAD_MESSAGES.header);
  }
  const { caller } = upload;
  const [made] = await rowsOf<{ id: number | string }>(
    database.db,
    sql`insert into csv_uploads (public_id, organization_id, user_id, key_id, header, expires_at)
      values (${newUploadId()}, ${caller.organizationId}, ${caller.userId}, ${caller.keyId},
        ${JSON.stringify(first.fields)}, now() + ${upload.hours} * interval '1 hour')
      returning id`,
  );
  const id = Number(made!.id);
  try {
    const { rows, chunks } = await writeChunks(records, upload.chunkRows, async (chunk, records) => {
      await database.db.execute(
        sql`insert into csv_upload_chunks (upload_id, chunk, records) values (${id}, ${chunk}, ${encodeRecords(records)})`,
      );
    });
    if (rows === 0) throw refused(UPLOAD_MESSAGES.empty);
    const [ready] = await rowsOf<UploadRow>(
      database.db,
      sql`update csv_uploads set status = 'ready', total_rows = ${rows}, total_chunks = ${chunks},
        bytes = ${size.bytes}, sha256 = ${digest.digest('hex')} where id = ${id} returning *`,
    );
    return ready!;
  } catch (error) {
    await database.db.execute(sql`delete from csv_uploads where id = ${id}`).catch(() => undefined);
    throw error;
  }
}

/** A ready upload not expired, as its viewer may see it; null otherwise. */
export async function findUpload(executor: Executor, viewer: Viewer, publicId: string): Promise<UploadRow | null> {
  const [row] = await rowsOf<UploadRow>(
    executor,
    sql`select * from csv_uploads where public_id = ${publicId} and ${visibleTo(viewer)} and status = 'ready'
      and expires_at > now()`,
  );
  return row ?? null;
}

export async function listUploads(executor: Executor, viewer: Viewer, limit: number, before: number | null) {
  return rowsOf<UploadRow>(
    executor,
    sql`select * from csv_uploads where ${visibleTo(viewer)} and status = 'ready' and expires_at > now()
      ${before === null ? sql`` : sql`and id < ${before}`} order by id desc limit ${limit}`,
  );
}

/** The job, not ended, reading the upload: while there is one, the upload stays. */
export async function jobUsing(executor: Executor, uploadId: number | string): Promise<string | null> {
  const [row] = await rowsOf<{ public_id: string }>(
    executor,
    sql`select public_id from bulk_jobs where upload_id = ${uploadId} and status in ('queued', 'running')
      order by id limit 1`,
  );
  return row?.public_id ?? null;
}

/** Holds the upload's row to the end of the transaction, against a job being made from it meanwhile. */
export async function lockUpload(executor: Executor, uploadId: number | string): Promise<void> {
  await executor.execute(sql`select id from csv_uploads where id = ${uploadId} for update`);
}

export async function deleteUpload(executor: Executor, uploadId: number | string): Promise<void> {
  await executor.execute(sql`delete from csv_uploads where id = ${uploadId}`);
}

const iso = (v: Date | string) => new Date(v).toISOString();

export const toUpload = (row: UploadRow): StoredUpload => ({
  id: row.public_id,
  columns: row.header,
  rows: row.total_rows,
  bytes: Number(row.bytes),
  sha256: row.sha256 ?? '',
  createdAt: iso(row.created_at),
  expiresAt: iso(row.expires_at),
});
