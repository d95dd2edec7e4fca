/**
 * The console's calls to /v2/jobs (issue 33 item 3, docs/jobs.md), with the session's cookies as the playground's
 * lookups: a page of jobs, one job, a cancel, and a new job, whose CSV file is POSTed as the body as it is
 * (`Content-Type: text/csv`) with its options in the query. Replies are the page's own, never the store's.
 */
import { OFFLINE_TEXT } from '@tessera/common/alerts';
import { REQUESTED_WITH_HEADER } from '@tessera/common/entities';
import type { Job, JobFormat } from '@tessera/common/jobs';
import type { LookupEndpoint } from '@tessera/common/lookups';
import { ApiError, errorText, request } from '../../lib/api';

export const JOBS_PATH = '/v2/jobs';
export const jobPath = (id: string) => `${JOBS_PATH}/${encodeURIComponent(id)}`;

/** The API's page size: by default, and at most. */
export const JOB_PAGE = { size: 20, max: 100 } as const;

export interface JobPage {
  jobs: Job[];
  /** The `before` of the next (older) page; null on the last. */
  next: string | null;
}

/** A page of jobs, newest first: the newest when `before` is null, else those older than that job. */
export const jobPage = (before: string | null, limit: number = JOB_PAGE.size) =>
  request<JobPage>('GET', JOBS_PATH, { query: { limit, before }, merge: false });

/**
 * The newest jobs again, for the page's live progress: a failure is not the reader's business (the next refresh
 * tries again), but a session that ended still signs out.
 */
export const refreshPage = (limit: number) =>
  request<JobPage>('GET', JOBS_PATH, { query: { limit }, merge: false, claim: (status) => status !== 401 });

/** One job, for the same refresh; null when it cannot be read now. */
export const refreshJob = (id: string) =>
  request<{ job: Job }>('GET', jobPath(id), { merge: false, claim: (status) => status !== 401 }).then(
    (reply) => reply.job,
    () => null,
  );

/** Ends a job that has not ended (409, alerted by the client, once it has). */
export const cancelJob = (id: string) =>
  request<{ job: Job }>('POST', `${jobPath(id)}/cancel`, { merge: false }).then((reply) => reply.job);

/** What the New Job form sends besides the file; empty strings are left out. */
export interface JobOptions {
  endpoint: LookupEndpoint;
  format: JobFormat;
  template: string;
  minScore: string;
  limit: string;
}

/** The query of POST /v2/jobs: the endpoint, the format unless the default, and the options given. */
export function jobQuery(options: JobOptions): string {
  const query = new URLSearchParams({ endpoint: options.endpoint });
  if (options.format !== 'csv') query.set('format', options.format);
  for (const name of ['template', 'minScore', 'limit'] as const) {
    const value = options[name].trim();
    if (value !== '') query.set(name, value);
  }
  return query.toString();
}

/**
 * Uploads `file` as a new job; its reply's job. A refusal (400 naming the problem, 402, 429...) throws an ApiError
 * carrying the server's message, for the form to show beside itself; the client's own alerts are not raised.
 */
export async function startJob(file: Blob, options: JobOptions): Promise<Job> {
  let res: Response;
  try {
    res = await fetch(`${JOBS_PATH}?${jobQuery(options)}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'text/csv', [REQUESTED_WITH_HEADER]: 'XMLHttpRequest' },
      body: file,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, null, OFFLINE_TEXT);
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: the text itself
  }
  if (!res.ok) throw new ApiError(res.status, body, errorText(res.status, body));
  const job = (body as { job?: Job } | null)?.job;
  if (!job) throw new ApiError(res.status, body, 'The server answered without the job.');
  return job;
}
