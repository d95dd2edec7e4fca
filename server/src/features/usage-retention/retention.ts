/**
 * Usage retention (issue 16, decision 0029): usage rows older than USAGE_RETENTION_MONTHS calendar months are
 * deleted: the months wholly past the cutoff as whole partitions (decision 0047), the rest oldest first, a batch per statement until none is left; the rollups (and so every chart, total and
 * bill) stay. The job runs at start and then hourly on an unref'd timer, and stops with the app. Several processes
 * may run it at once: each batch takes rows no other batch holds (`skip locked`), and a row deleted is deleted.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { dropMonthsBefore } from '../../db/month-partitions';
import { periodicJob } from '../../jobs/periodic';

export const BATCH_ROWS = 10_000;
export const RUN_EVERY_MS = 3600_000;

/** The moment `months` calendar months before `now` (UTC), on the last day of a shorter month when need be. */
export function retentionCutoff(now: Date, months: number): Date {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(now.getUTCDate(), lastDay),
      now.getUTCHours(),
      now.getUTCMinutes(),
      now.getUTCSeconds(),
      now.getUTCMilliseconds(),
    ),
  );
}

const BATCH = (scoped: boolean) => `with doomed as (
  select id from usage where at < $1::timestamptz${scoped ? ' and organization_id = $3' : ''}
  order by at limit $2 for update skip locked
), gone as (
  delete from usage u using doomed d where u.id = d.id returning 1
)
select count(*)::int as n from gone`;

export interface RetentionRun {
  cutoff: string;
  deleted: number;
  /** Delete statements run, the last one finding fewer rows than a batch. */
  batches: number;
  /** Month partitions dropped whole. */
  dropped: string[];
}

export interface RetentionOptions {
  database: Database;
  /** Months of rows kept; 0 keeps all (the job does nothing). */
  months: number;
  batchRows?: number;
  now?: () => number;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Only this organization's rows (tests, which share one database with every other test). */
  organizationId?: number;
}

export function createUsageRetention(options: RetentionOptions) {
  const { database, months } = options;
  const batchRows = options.batchRows ?? BATCH_ROWS;
  const now = options.now ?? Date.now;
  const scoped = options.organizationId !== undefined;
  const statement = BATCH(scoped);

  const job = periodicJob({
    name: 'usage retention run',
    logger: options.logger,
    async run(stopping): Promise<RetentionRun> {
      const cutoffAt = retentionCutoff(new Date(now()), months);
      const cutoff = cutoffAt.toISOString();
      // Months wholly past the cutoff go as whole partitions (decision 0047); a test's run, scoped to its own
      // organization in a shared database, leaves them alone.
      const dropped = scoped ? [] : await dropMonthsBefore(database, 'usage', cutoffAt);
      const params: unknown[] = [cutoff, batchRows, ...(scoped ? [options.organizationId] : [])];
      let deleted = 0;
      let batches = 0;
      for (;;) {
        const [row] = await database.query<{ n: number }>(statement, params);
        batches++;
        deleted += row?.n ?? 0;
        if ((row?.n ?? 0) < batchRows || stopping()) break;
      }
      if (deleted > 0 || dropped.length > 0) {
        options.logger?.info({ deleted, batches, cutoff, dropped }, 'old usage rows deleted');
      }
      return { cutoff, deleted, batches, dropped };
    },
  });

  return {
    /** Runs the job now (or joins the run under way); null when retention is off. */
    runOnce: (): Promise<RetentionRun | null> => (months <= 0 ? Promise.resolve(null) : job.runOnce()),
    /** Runs now, then every `everyMs`, until stopped. */
    start(everyMs = RUN_EVERY_MS): void {
      if (months > 0) job.start(everyMs);
    },
    /** Stops the timer and waits for a run under way (it ends after its current batch). */
    stop: () => job.stop(),
  };
}

export type UsageRetention = ReturnType<typeof createUsageRetention>;
