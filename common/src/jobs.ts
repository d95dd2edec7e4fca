/**
 * Bulk jobs (issue 33 item 3, docs/jobs.md): a CSV of any length looked up in the background, row for row as the
 * streamed PUT answers it, with progress, cancellation and a result file kept for a stated time.
 */
import type { LookupEndpoint } from './lookups';

export const JOB_STATUSES = ['uploading', 'queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** A job in one of these has ended: its result can be downloaded (the rows done, for a cancelled or failed one). */
export const ENDED_JOB_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

/** The result file's format: the PUT's CSV reply, or one JSON object a row. */
export const JOB_FORMATS = ['csv', 'jsonl'] as const;
export type JobFormat = (typeof JOB_FORMATS)[number];

/** A job's public id: `job_` and 24 hex digits. */
export const JOB_ID_PATTERN = /^job_[0-9a-f]{24}$/;

/** A job as GET /v2/jobs/{id} answers it. */
export interface Job {
  id: string;
  status: JobStatus;
  endpoint: LookupEndpoint;
  format: JobFormat;
  /** The lookup options it was made with (template, minScore, explain, limit). */
  options: Record<string, unknown>;
  rows: {
    /** Rows in the uploaded CSV (the header not counted). */
    total: number;
    /** Rows answered so far. */
    done: number;
    /** Rows that found at least one identity. */
    matched: number;
    /** Rows answered with an error (not valid CSV, or not a valid input). */
    failed: number;
  };
  /** Identities returned so far. */
  identities: number;
  /** What the rows done cost, in dollars (six decimals). */
  cost: string;
  /** Rows a second while it ran; null before its first chunk. */
  rowsPerSecond: number | null;
  /** Seconds left at that rate while it runs; null otherwise. */
  etaSeconds: number | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** When its result is deleted (GET result answers 410 after). */
  expiresAt: string | null;
  /** Where the result is downloaded once it has ended. */
  resultUrl: string | null;
}

export const JOB_MESSAGES = {
  endpoint: (given: string, names: readonly string[]) =>
    `${JSON.stringify(given)} is not a lookup endpoint; give endpoint as one of ${names.join(', ')}.`,
  format: 'Please give format as csv or jsonl.',
  body: 'Please POST the CSV as the body (Content-Type: text/csv), its header row naming its input columns.',
  notFound: 'There is no such job.',
  notEnded:
    'The job has not ended yet: its result can be downloaded once its status is completed, failed or cancelled.',
  expired: (days: number) => `The job's result was deleted: results are kept ${days} days after a job ends.`,
  ended: (status: string) => `The job has already ended (${status}).`,
  empty: 'The CSV has a header but no rows.',
  makerInactive: 'The user who made this job is no longer active.',
  makerMoved: 'The user who made this job has moved to another organization.',
  resultTypes: (types: readonly string[]) =>
    `This job's result may hold record types you may not see (${types.join(', ')}); ask its maker or an administrator who may see them.`,
} as const;
