/**
 * The job runner (decision 0068), run by every process with JOB_RUNNER on (the default), as the webhook worker runs
 * (webhooks/worker.ts, claims.ts): it claims a job whose lease has lapsed with `for update skip locked`, stamping a
 * lease token of its own, and runs it chunk by chunk, each commit renewing the lease. A process that stops (SIGTERM)
 * ends after the chunk under way and lets its lease go; one that dies leaves it to lapse, and then any process takes
 * the job over from its last committed chunk. The job's end (completed or failed) commits with its `job.completed`
 * webhook event.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor, Tx } from '../../db/client';
import { databaseFault } from '../../db/faults';
import { rows as rowsOf } from '../../db/rows';
import { AppError } from '../../http/errors';
import { periodicJob } from '../../jobs/periodic';
import type { LookupDeps } from '../identities/service';
import { TemplateError } from '../templates/evaluate';
import { writeUsage } from '../usage/metering';
import { enqueueWebhookEvent } from '../webhooks/enqueue';
import { ChunkFailed, callerOf, InputLost, queryIn, runChunk } from './chunk';
import { type JobRow, toJob } from './repo';
import type { JobSettings } from './settings';

/** How often each process looks for a job to run. */
export const POLL_MS = 2000;
/** A job's lease: far longer than a chunk takes; each chunk's commit renews it. */
export const LEASE_MS = 60_000;
/** A job stopped by a failure of ours (the database away) is tried again after this. */
export const RETRY_MS = 5000;

export interface RunnerDeps {
  lookups: LookupDeps;
  settings: JobSettings;
  publicUrl: URL;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Asks the webhook worker to send now (after an event was committed). */
  kickWebhooks?: () => void;
  leaseMs?: number;
}

export interface JobRunner {
  /** What it looks rows up with (the lookup API's own dependencies). */
  readonly lookups: LookupDeps;
  /** Runs jobs until none is left to claim (tests; the timer does the same). Answers the chunks committed. */
  runOnce(): Promise<number>;
  start(): void;
  /** Asks for a round soon (after a job was queued), rather than at the next poll. */
  kick(): void;
  /** Stops the timer; the job under way ends after its current chunk, its lease let go. */
  stop(): Promise<void>;
}

/** Takes the oldest runnable job whose lease has lapsed (or that never had one) under `token`. */
export async function claimJob(database: Database, token: string, leaseMs: number): Promise<JobRow | null> {
  const [row] = await rowsOf<JobRow>(
    database.db,
    sql`update bulk_jobs set status = 'running', lease_token = ${token},
      lease_until = now() + ${leaseMs} * interval '1 millisecond', started_at = coalesce(started_at, now())
    where id = (
      select id from bulk_jobs where status in ('queued', 'running') and (lease_until is null or lease_until < now())
      order by id limit 1 for update skip locked
    ) returning *`,
  );
  return row ?? null;
}

/** Lets a lease go: the job is another process's to take at once (a stop), or after `afterMs` (a failure). */
export async function releaseJob(database: Database, jobId: number, token: string, afterMs = 0): Promise<void> {
  await database.db.execute(sql`update bulk_jobs set lease_token = null,
    lease_until = now() + ${afterMs} * interval '1 millisecond'
    where id = ${jobId} and lease_token = ${token} and status = 'running'`);
}

/** Ends a job under its lease, with its webhook event, in one transaction; false when the lease was lost. */
export async function endJob(
  deps: Pick<RunnerDeps, 'lookups' | 'settings' | 'publicUrl'>,
  job: JobRow,
  token: string,
  outcome: { status: 'completed' } | { status: 'failed'; error: string },
  /** More to commit with the end (a failed chunk's usage), under the same lease. */
  within?: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  return deps.lookups.database.transaction(async (tx) => {
    const error = outcome.status === 'failed' ? outcome.error : null;
    const [ended] = await rowsOf<JobRow>(
      tx,
      sql`update bulk_jobs set status = ${outcome.status}, error = ${error}, finished_at = now(),
        expires_at = now() + ${deps.settings.resultDays} * interval '1 day', lease_token = null, lease_until = null
      where id = ${job.id} and lease_token = ${token} and status = 'running' returning *`,
    );
    if (!ended) return false;
    await within?.(tx);
    await tx.execute(sql`delete from bulk_job_inputs where job_id = ${job.id}`);
    await enqueueJobEnded(tx, ended, deps.publicUrl);
    return true;
  });
}

/** The `job.completed` event of a job that ended (completed, failed or cancelled), in the transaction that ended it. */
export async function enqueueJobEnded(tx: Executor, row: JobRow, publicUrl: URL): Promise<void> {
  if (row.organization_id === null) return; // webhooks are an organization's
  const job = toJob(row);
  await enqueueWebhookEvent(tx, {
    organizationId: row.organization_id,
    type: 'job.completed',
    data: {
      id: job.id,
      status: job.status,
      endpoint: job.endpoint,
      format: job.format,
      rows: job.rows,
      identities: job.identities,
      cost: job.cost,
      error: job.error,
      finishedAt: job.finishedAt,
      expiresAt: job.expiresAt,
      resultUrl: new URL(job.resultUrl!, publicUrl).href,
    },
  });
}

/** Runs a claimed job to its end, or until stopping / the lease is lost. Answers the chunks committed. */
export async function runJob(deps: RunnerDeps, claimed: JobRow, token: string, stopping: () => boolean) {
  const leaseMs = deps.leaseMs ?? LEASE_MS;
  const job = { ...claimed };
  let chunks = 0;
  try {
    while (job.chunks_done < job.total_chunks) {
      if (stopping()) {
        await releaseJob(deps.lookups.database, job.id, token);
        return chunks;
      }
      // Admitted again for every chunk, as each lookup call is: a key revoked, a contract ended or a monthly limit
      // reached mid-job ends the job after the chunk under way, not at its end.
      const caller = await callerOf(deps.lookups, job);
      const done = await runChunk(deps.lookups, job, token, leaseMs, caller);
      if (!done.committed) return chunks; // cancelled, or taken over by another runner
      chunks++;
      job.chunks_done++;
      // The columns are fixed by the first chunk: read back as committed.
      if (!job.columns) {
        const [row] = await rowsOf<{ columns: string[] }>(
          deps.lookups.database.db,
          sql`select columns from bulk_jobs where id = ${job.id}`,
        );
        job.columns = row!.columns;
      }
    }
    if (await endJob(deps, job, token, { status: 'completed' })) deps.kickWebhooks?.();
  } catch (error) {
    // The template failed on a chunk's rows after they were looked up: the job fails, billed for those lookups.
    if (error instanceof ChunkFailed) {
      const { usage, costMicros } = error;
      const billed = async (tx: Tx) => {
        if (!usage) return;
        await writeUsage(queryIn(tx), [usage]);
        await tx.execute(sql`update bulk_jobs set cost = cost + ${(costMicros / 1e6).toFixed(6)}::numeric,
          identities = identities + ${usage.metrics.identities} where id = ${job.id}`);
      };
      if (await endJob(deps, job, token, { status: 'failed', error: error.message }, billed)) {
        if (usage) deps.lookups.billing.charged(usage.organizationId, costMicros, error.caller.terms);
        deps.kickWebhooks?.();
      }
      return chunks;
    }
    // The caller's own problem (its organization may no longer call, its template is gone or fails), or its rows
    // lost: the job fails.
    if (
      (error instanceof AppError && error.status < 500) ||
      error instanceof TemplateError ||
      error instanceof InputLost
    ) {
      if (await endJob(deps, job, token, { status: 'failed', error: error.message })) deps.kickWebhooks?.();
      return chunks;
    }
    // Anything else (the database away) is tried again: the lease is let go if it can be, or lapses.
    deps.logger.warn(
      { jobId: job.public_id, code: databaseFault(error)?.code ?? (error as { code?: unknown }).code },
      'bulk job stopped',
    );
    await releaseJob(deps.lookups.database, job.id, token, RETRY_MS).catch(() => undefined);
  }
  return chunks;
}

export function createJobRunner(deps: RunnerDeps): JobRunner {
  const leaseMs = deps.leaseMs ?? LEASE_MS;
  let started = false;
  let wake: NodeJS.Timeout | null = null;

  async function round(stopping: () => boolean): Promise<number> {
    let chunks = 0;
    while (!stopping()) {
      const token = randomUUID();
      const job = await claimJob(deps.lookups.database, token, leaseMs);
      if (!job) break;
      chunks += await runJob(deps, job, token, stopping);
    }
    return chunks;
  }

  const job = periodicJob({ name: 'bulk jobs', run: round, logger: deps.logger as FastifyBaseLogger });
  return {
    lookups: deps.lookups,
    runOnce: () => job.runOnce(),
    start() {
      if (started) return;
      started = true;
      job.start(POLL_MS);
    },
    kick() {
      if (!started || wake) return;
      wake = setTimeout(() => {
        wake = null;
        job.runOnce().catch(() => undefined);
      }, 0);
      wake.unref();
    },
    async stop() {
      started = false;
      if (wake) clearTimeout(wake);
      wake = null;
      await job.stop();
    },
  };
}
