/**
 * One chunk of a job, answered exactly as the streamed PUT answers its rows (csv-stream.ts: the same batches, lookups,
 * columns and lines), then committed in one transaction with its usage and the job's progress. The commit is taken
 * only under the lease it was claimed with and only for the chunk the job is at, so a chunk is answered and billed
 * once whoever runs it: a runner that lost its lease (or whose job was cancelled) rolls back and stops.
 */
import { purposeRefusal } from '@tessera/common/purposes';
import { emptyMetrics } from '@tessera/common/usage';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { rows as rowsOf } from '../../db/rows';
import { Forbidden } from '../../http/errors';
import { costMicros } from '../contracts/pricing';
import { headerLine } from '../identities/csv-output';
import { csvLines, ERROR_COLUMN, type LookedUp, lookUp, readBatch, replyColumns } from '../identities/csv-rows';
import { type Admitted, type LookupDeps, prepare, TemplateFailure } from '../identities/service';
import type { AuditedInput } from '../lookup-audit/entries';
import { type UsageEvent, writeUsage } from '../usage/metering';
import type { JobRow } from './repo';
import { callerNow, noteResultTypes } from './standing';
import { decodeRecords } from './upload';

/** A statement with $1, $2 … placeholders as drizzle SQL, to run in a transaction (the usage write's own text). */
function toSql(text: string, params: unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 0) chunks.push(sql.raw(part));
    else chunks.push(sql`${params[Number(part) - 1]}`);
  });
  return sql.join(chunks);
}

/** `query` over a transaction, for writers that take the database's (writeUsage). */
export const queryIn = (tx: Executor) => ({
  query: async <T>(text: string, params?: unknown[]) => rowsOf<T>(tx, toSql(text, params)),
});

/** A JSON line per row: its line, its cells by column, the identities it found (flattened) and its error. */
function jsonLines(job: JobRow, batch: LookedUp[]): string {
  let out = '';
  for (const { row, identities } of batch) {
    const { record } = row;
    const input =
      record.error === undefined
        ? Object.fromEntries(job.header.names.map((name, i) => [name, record.fields[i] ?? '']))
        : null;
    const line = {
      line: record.line,
      input,
      identities: identities.map((identity) => Object.fromEntries(identity)),
      error: row.error ?? null,
    };
    out += `${JSON.stringify(line)}\n`;
  }
  return out;
}

export { KEY_GONE } from './standing';
export const INPUT_LOST = 'The rows of this job were lost before they were looked up; please submit the CSV again.';

/** A chunk's input is gone (nothing of ours deletes it while the job runs): the job cannot go on, so it fails. */
export class InputLost extends Error {
  constructor() {
    super(INPUT_LOST);
  }
}

/**
 * The template failed in a chunk after its rows were looked up: the job fails, and those lookups are billed and
 * audited as the PUT bills them (a 422 usage row), in the transaction that ends the job.
 */
export class ChunkFailed extends Error {
  constructor(
    message: string,
    /** The chunk's usage row; null for a test key, which is never billed. */
    readonly usage: UsageEvent | null,
    readonly costMicros: number,
    /** Who the chunk ran for, as admitted: its billing reading takes the cost. */
    readonly caller: Admitted,
  ) {
    super(message);
  }
}

/**
 * The caller as the job was made, standing as its user and key stand now and admitted again: a job goes on only while
 * the key that made it is live and its user active in the organization, with the record types they have now, and while
 * its organization may call (a 402 or a 403 ends the job, with its message), for the permissible purpose the job was
 * made for if its contract still allows it (issue 34: 403 otherwise).
 */
export async function callerOf(deps: LookupDeps, job: JobRow): Promise<Admitted> {
  const caller = await callerNow(deps.database, job.caller);
  await noteResultTypes(deps.database, job.id, caller.allowedRecordTypes);
  const terms = caller.mode === 'test' ? null : await deps.billing.admit(caller);
  const purpose = caller.purpose ?? null;
  const refusal = purposeRefusal(terms?.purposes, purpose);
  if (refusal) throw new Forbidden(refusal);
  return { ...caller, terms, purpose };
}

export interface ChunkDone {
  /** Committed under the lease; false when the lease was lost or the job ended (cancelled) meanwhile. */
  committed: boolean;
  rows: number;
}

/** Extends a running job's lease; false when it is no longer ours (taken over, or the job cancelled). */
async function renewLease(deps: LookupDeps, jobId: number, token: string, leaseMs: number): Promise<boolean> {
  const [renewed] = await rowsOf<{ id: number }>(
    deps.database.db,
    sql`update bulk_jobs set lease_until = now() + ${leaseMs} * interval '1 millisecond'
      where id = ${jobId} and lease_token = ${token} and status = 'running' returning id`,
  );
  return renewed !== undefined;
}

/** Answers chunk `job.chunks_done` and commits it with its usage and the job's progress. */
export async function runChunk(
  deps: LookupDeps,
  job: JobRow,
  token: string,
  leaseMs: number,
  caller: Admitted,
): Promise<ChunkDone> {
  const started = Date.now();
  const chunk = job.chunks_done;
  const [input] = await rowsOf<{ records: string }>(
    deps.database.db,
    job.upload_id === null
      ? sql`select records from bulk_job_inputs where job_id = ${job.id} and chunk = ${chunk}`
      : sql`select records from csv_upload_chunks where upload_id = ${job.upload_id} and chunk = ${chunk}`,
  );
  if (!input) throw new InputLost();
  const records = (async function* () {
    yield* decodeRecords(input.records);
  })();
  const prepared = await prepare(deps, caller, job.options);
  const metrics = emptyMetrics();
  const audit: AuditedInput[] = [];
  let columns = job.columns;
  let body = '';
  let rows = 0;
  let matched = 0;
  let failed = 0;
  let renewed = Date.now();
  /** The chunk's usage row, as the PUT writes it. */
  const usageOf = (status: number, cost: number): UsageEvent => ({
    // One usage row a chunk, under an id of the job's: a chunk is billed once, whichever runner commits it.
    requestId: `${job.public_id}.${chunk}`,
    userId: caller.userId,
    organizationId: caller.organizationId,
    keyId: caller.keyId,
    method: 'PUT',
    path: `/${job.endpoint}`,
    status,
    metrics,
    costMicros: cost,
    lookups: audit,
    purpose: caller.purpose,
  });
  try {
    for (;;) {
      // A slow chunk (a heavy template, a busy database) keeps its lease between batches: were it to lapse, another
      // process would take the job over and this chunk's commit would fail, over and over, on every process.
      if (Date.now() - renewed > leaseMs / 3) {
        if (!(await renewLease(deps, job.id, token, leaseMs))) return { committed: false, rows: 0 };
        renewed = Date.now();
      }
      // A turn for the event loop between batches: on PGlite a job's statements resolve without one, and requests
      // (its own progress, a SIGTERM's drain) would wait for the whole job.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const batch = await readBatch(records, job.header, job.endpoint);
      if (batch.length === 0) break;
      const found = await lookUp(deps, prepared, batch, metrics, audit);
      if (!columns) {
        // Fixed by the first batch of the job, as the PUT fixes them by its first: the same columns on every line.
        columns = await replyColumns(prepared, found);
        if (job.format === 'csv') body += headerLine([...job.header.names, ...columns, ERROR_COLUMN]);
      }
      body += job.format === 'csv' ? csvLines(job.header, columns, found) : jsonLines(job, found);
      rows += found.length;
      matched += found.filter((f) => f.identities.length > 0).length;
      failed += found.filter((f) => f.row.error !== undefined).length;
    }
  } catch (error) {
    if (!(error instanceof TemplateFailure)) throw error;
    metrics.milliseconds = Date.now() - started;
    const cost = caller.terms ? costMicros(caller.terms, metrics) : 0;
    // The sandbox is free and unmetered (service.ts, meter): no usage row, no audit trail.
    throw new ChunkFailed(error.message, caller.mode === 'test' ? null : usageOf(422, cost), cost, caller);
  }
  metrics.milliseconds = Date.now() - started;
  const cost = caller.terms ? costMicros(caller.terms, metrics) : 0;
  const committed = await deps.database.transaction(async (tx) => {
    const [moved] = await rowsOf<{ id: number }>(
      tx,
      sql`update bulk_jobs set chunks_done = chunks_done + 1, rows_done = rows_done + ${rows},
        rows_matched = rows_matched + ${matched}, rows_failed = rows_failed + ${failed},
        identities = identities + ${metrics.identities}, cost = cost + ${(cost / 1e6).toFixed(6)}::numeric,
        busy_ms = busy_ms + ${metrics.milliseconds}, columns = coalesce(columns, ${JSON.stringify(columns)}::jsonb),
        lease_until = now() + ${leaseMs} * interval '1 millisecond'
      where id = ${job.id} and lease_token = ${token} and status = 'running' and chunks_done = ${chunk}
      returning id`,
    );
    if (!moved) return false;
    await tx.execute(
      sql`insert into bulk_job_results (job_id, chunk, body) values (${job.id}, ${chunk}, ${Buffer.from(body)})`,
    );
    // The sandbox is free and unmetered (service.ts, meter): no usage row, no audit trail.
    if (caller.mode !== 'test') {
      await writeUsage(queryIn(tx), [usageOf(200, cost)]);
    }
    return true;
  });
  if (committed && caller.mode !== 'test') deps.billing.charged(caller.organizationId, cost, caller.terms);
  return { committed, rows };
}
