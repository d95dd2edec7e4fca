/**
 * Retention of the other personal data (issue 22 item 4, decision 0039), beside usage rows (usage-retention,
 * decision 0029): the lookup audit trail, page views and contact messages past their settings, and opt-out requests
 * never confirmed once their link has expired (they hold an address). The audit trail's months wholly past its
 * cutoff are dropped as partitions (decision 0047); each table is then emptied of its old rows a batch per statement, oldest first (`skip locked`, so several processes may run it at once); at start, then hourly.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { dropMonthsBefore } from '../../db/month-partitions';
import { periodicJob } from '../../jobs/periodic';
import { retentionCutoff } from '../usage-retention/retention';

export const BATCH_ROWS = 10_000;
export const RUN_EVERY_MS = 3600_000;

export interface RetentionSettings {
  /** Months; 0 keeps all. */
  lookupAuditMonths: number;
  /** Days; 0 keeps all. */
  pageViewDays: number;
  /** Months; 0 keeps all. */
  contactMessageMonths: number;
}

interface Target {
  name: 'lookupAudit' | 'pageViews' | 'contactMessages' | 'optOutRequests';
  table: string;
  column: string;
  /** Extra condition (expired, unconfirmed requests). */
  where?: string;
  cutoff(now: Date): Date | null;
}

const DAY = 86_400_000;

function targets(s: RetentionSettings): Target[] {
  return [
    {
      name: 'lookupAudit',
      table: 'lookup_audit',
      column: 'at',
      cutoff: (now) => (s.lookupAuditMonths > 0 ? retentionCutoff(now, s.lookupAuditMonths) : null),
    },
    {
      name: 'pageViews',
      table: 'page_views',
      column: 'at',
      cutoff: (now) => (s.pageViewDays > 0 ? new Date(now.getTime() - s.pageViewDays * DAY) : null),
    },
    {
      name: 'contactMessages',
      table: 'contact_messages',
      column: 'created_at',
      cutoff: (now) => (s.contactMessageMonths > 0 ? retentionCutoff(now, s.contactMessageMonths) : null),
    },
    {
      name: 'optOutRequests',
      table: 'opt_out_requests',
      column: 'expires_at',
      where: 'confirmed_at is null',
      cutoff: (now) => now,
    },
  ];
}

const statement = (t: Target) => `with doomed as (
  select id from ${t.table} where ${t.column} < $1::timestamptz${t.where ? ` and ${t.where}` : ''}
  order by ${t.column} limit $2 for update skip locked
), gone as (
  delete from ${t.table} x using doomed d where x.id = d.id returning 1
)
select count(*)::int as n from gone`;

export type RetentionRun = Record<Target['name'], number>;

export function createDataRetention(options: {
  database: Database;
  settings: RetentionSettings;
  batchRows?: number;
  now?: () => number;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}) {
  const { database } = options;
  const batchRows = options.batchRows ?? BATCH_ROWS;
  const now = options.now ?? Date.now;

  const job = periodicJob({
    name: 'data retention run',
    logger: options.logger,
    async run(stopping): Promise<RetentionRun> {
      const run: RetentionRun = { lookupAudit: 0, pageViews: 0, contactMessages: 0, optOutRequests: 0 };
      const at = new Date(now());
      for (const target of targets(options.settings)) {
        const cutoff = target.cutoff(at);
        if (!cutoff) continue;
        // The audit trail's months wholly past the cutoff go as whole partitions; the rest row by row (decision 0047).
        if (target.table === 'lookup_audit') await dropMonthsBefore(database, 'lookup_audit', cutoff);
        const text = statement(target);
        for (;;) {
          const [row] = await database.query<{ n: number }>(text, [cutoff.toISOString(), batchRows]);
          run[target.name] += row?.n ?? 0;
          if ((row?.n ?? 0) < batchRows || stopping()) break;
        }
      }
      if (Object.values(run).some((n) => n > 0)) options.logger?.info({ deleted: run }, 'old personal data deleted');
      return run;
    },
  });

  return {
    runOnce: () => job.runOnce(),
    start: (everyMs = RUN_EVERY_MS) => job.start(everyMs),
    stop: () => job.stop(),
  };
}
