/**
 * A job's upload: the CSV body read as it arrives (csvRecords, as the PUT reads it), its header checked as the PUT
 * checks it (a 400 before any job exists), its rows kept in the database a chunk at a time, so memory holds one
 * chunk whatever the file's length and every node can run the job (decision 0068). Records are kept parsed, with
 * their line numbers, so a row's error names the same line the PUT's would.
 */
import { JOB_MESSAGES } from '@tessera/common/jobs';
import type { LookupEndpoint } from '@tessera/common/lookups';
import { UPLOAD_MESSAGES } from '@tessera/common/uploads';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { rows as rowsOf } from '../../db/rows';
import { BadRequest, NotFound } from '../../http/errors';
import type { LookupCaller } from '../identities/caller';
import { type CsvRecord, csvRecords } from '../identities/csv-input';
import { headerOf } from '../identities/csv-rows';
import type { LookupOptionsInput } from '../identities/options';
import { writeChunks } from './paging';
import { deleteJob, insertInputChunk, insertJob, newJobId, queueJob, type Viewer, visibleTo } from './repo';

/** A record as kept: `[line, fields]`, or `[line, null, error]` for a row that is not valid CSV. */
type Stored = [number, string[]] | [number, null, string];

export const encodeRecords = (records: CsvRecord[]) =>
  JSON.stringify(records.map((r): Stored => (r.error === undefined ? [r.line, r.fields] : [r.line, null, r.error])));

export const decodeRecords = (text: string): CsvRecord[] =>
  (JSON.parse(text) as Stored[]).map((s) =>
    s[1] === null ? { line: s[0], error: s[2] } : { line: s[0], fields: s[1] },
  );

export interface Upload extends JobSpec {
  body: AsyncIterable<Buffer>;
  chunkRows: number;
}

/** What a job is made with, whatever its rows come from. */
export interface JobSpec {
  caller: LookupCaller;
  endpoint: LookupEndpoint;
  options: LookupOptionsInput;
  format: 'csv' | 'jsonl';
}

/** Reads the body into a new job, queued once whole; its public id. A failed upload leaves no job. */
export async function storeUpload(database: Database, upload: Upload): Promise<string> {
  const records = csvRecords(upload.body)[Symbol.asyncIterator]();
  const header = headerOf((await records.next()).value as CsvRecord | undefined, upload.endpoint);
  const publicId = newJobId();
  const jobId = await insertJob(database.db, { ...upload, publicId, header });
  try {
    const { rows, chunks } = await writeChunks(records, upload.chunkRows, (chunk, records) =>
      insertInputChunk(database, jobId, chunk, encodeRecords(records)),
    );
    if (rows === 0) throw new BadRequest(JOB_MESSAGES.empty, [{ path: 'body', message: JOB_MESSAGES.empty }]);
    await queueJob(database, jobId, rows, chunks);
    return publicId;
  } catch (error) {
    await deleteJob(database, jobId).catch(() => undefined);
    throw error;
  }
}

/**
 * Makes a queued job that reads a stored upload's chunks in place (stored-uploads.ts): the upload's header checked
 * against the endpoint as a body's is (400), an upload the viewer may not see or that expired answering 404. The
 * upload's row is held (FOR SHARE) until the job exists, so its owner cannot delete it in between.
 */
export async function jobFromUpload(
  database: Database,
  spec: JobSpec & { upload: string; viewer: Viewer },
): Promise<string> {
  return database.transaction(async (tx) => {
    const [upload] = await rowsOf<{ id: number | string; header: string[]; total_rows: number; total_chunks: number }>(
      tx,
      sql`select id, header, total_rows, total_chunks from csv_uploads where public_id = ${spec.upload}
        and ${visibleTo(spec.viewer)} and status = 'ready' and expires_at > now() for share`,
    );
    if (!upload) throw new NotFound(UPLOAD_MESSAGES.notFound);
    const header = headerOf({ line: 1, fields: upload.header }, spec.endpoint);
    const publicId = newJobId();
    const fromUpload = { id: upload.id, rows: upload.total_rows, chunks: upload.total_chunks };
    await insertJob(tx, { ...spec, publicId, header, fromUpload });
    return publicId;
  });
}
