/**
 * How the Bulk Jobs page words a job (issue 33 item 3, docs/jobs.md): its status as text (a colour only repeats it),
 * its rows as counts with separators, its rate as rows a second, its time left as a person would say it ("about
 * 2 min"), and what can be done with it now: cancelled while it runs, downloaded once it ended until its result is
 * deleted.
 */
import { ENDED_JOB_STATUSES, type Job, type JobFormat, type JobStatus } from '@tessera/common/jobs';

export const STATUS_LABEL: Record<JobStatus, string> = {
  uploading: 'Uploading',
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const STATUS_COLOR: Record<JobStatus, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  uploading: 'default',
  queued: 'default',
  running: 'info',
  completed: 'success',
  failed: 'error',
  cancelled: 'warning',
};

export const FORMAT_LABEL: Record<JobFormat, string> = { csv: 'CSV', jsonl: 'JSON lines' };

const count = new Intl.NumberFormat('en-US');
export const formatCount = (n: number) => count.format(n);

/** Shown where a figure does not apply (no rate before the first chunk, no time left once ended). */
export const NONE = '—';

/** A job still to be answered: the page refreshes it. */
export const isActive = (job: Pick<Job, 'status'>) =>
  job.status === 'queued' || job.status === 'running' || job.status === 'uploading';

/** Rows a second (under a "Rows/s" heading): "3.5" under ten, whole above ("1,250"); a dash before the first chunk. */
export function formatRate(rowsPerSecond: number | null): string {
  if (rowsPerSecond === null || !Number.isFinite(rowsPerSecond) || rowsPerSecond < 0) return NONE;
  return rowsPerSecond < 10
    ? (Math.round(rowsPerSecond * 10) / 10).toString()
    : count.format(Math.round(rowsPerSecond));
}

const MINUTE = 60;
const DAY = 86_400;

/**
 * Time left as said aloud: "less than a minute", "about 1 min", "about 25 min", "about 2 h 15 min" (minutes to the
 * nearest 5), "about 3 days"; a dash when there is no estimate.
 */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return NONE;
  if (seconds < 45) return 'less than a minute';
  const minutes = Math.max(1, Math.round(seconds / MINUTE));
  if (minutes < 60) return `about ${minutes} min`;
  if (seconds < 2 * DAY) {
    const fives = Math.round(seconds / (5 * MINUTE)) * 5;
    const hours = Math.floor(fives / 60);
    const rest = fives % 60;
    return rest === 0 ? `about ${hours} h` : `about ${hours} h ${rest} min`;
  }
  return `about ${Math.round(seconds / DAY)} days`;
}

/** Rows done as a share of the total, 0 to 100 (a job with no rows is all done once it ended). */
export function progressPercent(job: Pick<Job, 'rows' | 'status'>): number {
  if (job.rows.total <= 0) return ENDED_JOB_STATUSES.includes(job.status) ? 100 : 0;
  return Math.min(100, Math.max(0, (job.rows.done / job.rows.total) * 100));
}

/** "1,000 / 2,500": rows done of the total, under a "Rows" heading. */
export const progressFigures = (job: Pick<Job, 'rows'>) =>
  `${count.format(job.rows.done)} / ${count.format(job.rows.total)}`;

/** "1,000 of 2,500 rows", as the progress bar tells it. */
export const progressText = (job: Pick<Job, 'rows'>) =>
  `${count.format(job.rows.done)} of ${count.format(job.rows.total)} ${job.rows.total === 1 ? 'row' : 'rows'}`;

/** What the Actions cell offers: Cancel while it runs, Download once it ended, "Expired" after its result went. */
export type JobAction = 'cancel' | 'download' | 'expired' | 'none';

export function jobAction(job: Pick<Job, 'status' | 'expiresAt' | 'resultUrl'>, now: number): JobAction {
  if (job.status === 'queued' || job.status === 'running') return 'cancel';
  if (!ENDED_JOB_STATUSES.includes(job.status)) return 'none';
  if (job.expiresAt !== null && Date.parse(job.expiresAt) <= now) return 'expired';
  return job.resultUrl ? 'download' : 'none';
}
