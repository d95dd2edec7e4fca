/**
 * Bulk jobs (the server's docs/jobs.md): a CSV of any length looked up in the background, row for row as a CSV upload
 * answers it; followed, waited for, cancelled, and its result downloaded as a stream.
 */
import { isReplayable, prepareBody } from './body.js';
import { abortedError, TesseraError } from './errors.js';
import { type Caller, type Exchange, jsonCall } from './exchange.js';
import type { Endpoint, Job, JobPage, JobQueryOptions } from './generated/openapi.js';
import { JobResult } from './job-result.js';
import { withMeta } from './reply-meta.js';
import { setOptions } from './request-parts.js';
import { sleep, uuid } from './retry.js';
import type { CallOptions, CsvSource, ReplyMeta, RetryOptions, WriteCallOptions } from './types.js';

/** A job in one of these has ended: its result can be downloaded. */
export const ENDED_JOB_STATUSES: readonly Job['status'][] = ['completed', 'failed', 'cancelled'];

/** How often `wait` asks, and how long it waits at most, by default. */
export const JOB_WAIT_DEFAULTS = { intervalMs: 2_000, timeoutMs: 3_600_000 } as const;

const JOB_OPTIONS = ['format', 'template', 'minScore', 'limit', 'explain', 'purpose'] as const;
const PATH = '/v2/jobs';

/** A job as the server answered it, with `meta` about the exchange (not enumerable). */
export type JobReplyWithMeta = Job & { readonly meta: ReplyMeta };

/** A page of jobs, newest first: pass `next` as `before` for the next page (null on the last). */
export type JobPageReply = JobPage & { readonly meta: ReplyMeta };

/** Options of a job: the API's (format, template, minScore, limit, explain, purpose) and the call's (an Idempotency-Key). */
export interface JobOptions extends JobQueryOptions, WriteCallOptions {}

/** Which page of jobs to list. */
export interface JobListQuery extends CallOptions {
  /** Jobs a page, 1 to 100 (default 20). */
  limit?: number;
  /** Only jobs older than this one: the `next` of the page before. */
  before?: string;
}

/** How `wait` follows a job. */
export interface JobWaitOptions {
  /** Milliseconds between two reads of the job (default 2,000). */
  intervalMs?: number;
  /** Milliseconds to wait at most, over all reads (default one hour): then a TesseraError with code `timeout`. */
  timeoutMs?: number;
  /** Stops waiting (a TesseraError with code `aborted`); the job goes on. */
  signal?: AbortSignal;
  /** Retries of each read, over the client's (429 and 503 by default). */
  retry?: RetryOptions | false;
  headers?: Record<string, string>;
  /** Called with the job after each read, e.g. to show its progress. */
  onProgress?: (job: JobReplyWithMeta) => void;
}

const encodeId = (id: string) => {
  if (typeof id !== 'string' || id === '')
    throw new TypeError('A job id is text, such as job_5f0c2d3e9a8b7c6d5e4f3a2b.');
  return encodeURIComponent(id);
};

function badReply(meta: ReplyMeta, body: unknown, what: string): TesseraError {
  return new TesseraError({
    status: meta.status,
    code: 'invalid_response',
    message: `The reply had no ${what}.`,
    requestId: meta.requestId,
    body,
    attempts: meta.attempts,
  });
}

/** The jobs of the client's key (`client.jobs`): each call uses the client's key, retries and timeouts. */
export class Jobs {
  private readonly caller: Caller;

  /** Made by the client. */
  constructor(caller: Caller) {
    this.caller = caller;
  }

  /**
   * Starts a job (POST /v2/jobs): `source` is the CSV a CSV upload takes (a header row naming the endpoint's input
   * columns, your own columns passed through), as text, bytes, a Blob, a stream, an iterable of chunks or a function
   * giving one (`csvFile(path)` in Node). Answers the job, queued.
   *
   * It carries an Idempotency-Key (a random one unless given; `false` sends none), the same on every retry: a repeat
   * gets the first job back (`meta.replayed`) and makes no second one. Text, bytes, Blobs and functions are sent again
   * on 429 and 503, and after no reply; a stream is sent once.
   */
  async submit(endpoint: Endpoint, source: CsvSource, options: JobOptions = {}): Promise<JobReplyWithMeta> {
    const query = new URLSearchParams({ endpoint: String(endpoint) });
    setOptions(query, options, JOB_OPTIONS);
    return this.job({
      method: 'POST',
      path: PATH,
      query,
      accept: 'application/json',
      headers: { 'content-type': 'text/csv' },
      body: () => prepareBody(source),
      replayable: isReplayable(source),
      idempotencyKey: options.idempotencyKey === false ? undefined : (options.idempotencyKey ?? uuid()),
      stream: false,
      options,
    });
  }

  /** The job and its progress (GET /v2/jobs/{id}). */
  get(id: string, options: CallOptions = {}): Promise<JobReplyWithMeta> {
    return this.job(jsonCall('GET', `${PATH}/${encodeId(id)}`, options));
  }

  /** A page of the jobs this key may see, newest first (GET /v2/jobs): its maker's, or an administrator's organization's. */
  async list(query: JobListQuery = {}): Promise<JobPageReply> {
    const search = new URLSearchParams();
    setOptions(search, query, ['limit', 'before']);
    const reply = await this.caller.json(jsonCall('GET', PATH, query, search));
    if (!Array.isArray(reply.jobs)) throw badReply(reply.meta, reply, 'jobs');
    return withMeta({ jobs: reply.jobs as Job[], next: (reply.next as string | null) ?? null }, reply.meta);
  }

  /** Every job this key may see, newest first, a page at a time. */
  async *all(query: JobListQuery = {}): AsyncGenerator<Job> {
    let before = query.before;
    for (;;) {
      const page = await this.list({ ...query, ...(before === undefined ? {} : { before }) });
      yield* page.jobs;
      if (page.next === null) return;
      before = page.next;
    }
  }

  /**
   * Ends a job that has not ended (POST /v2/jobs/{id}/cancel): the rows done stay done, billed and downloadable.
   * A job that has ended already is a TesseraError with status 409.
   */
  cancel(id: string, options: CallOptions = {}): Promise<JobReplyWithMeta> {
    return this.job(jsonCall('POST', `${PATH}/${encodeId(id)}/cancel`, options));
  }

  /**
   * Reads the job every `intervalMs` until it has ended (completed, failed or cancelled) and answers it as it ended;
   * each read is retried on 429 and 503 as any call is. Past `timeoutMs` a TesseraError with code `timeout` names the
   * job and how far it got (the job goes on: wait again, or cancel it).
   */
  async wait(id: string, options: JobWaitOptions = {}): Promise<JobReplyWithMeta> {
    const intervalMs = options.intervalMs ?? JOB_WAIT_DEFAULTS.intervalMs;
    const timeoutMs = options.timeoutMs ?? JOB_WAIT_DEFAULTS.timeoutMs;
    if (!(intervalMs >= 0) || !(timeoutMs >= 0)) throw new TypeError('intervalMs and timeoutMs are 0 or more.');
    const deadline = Date.now() + timeoutMs;
    const call: CallOptions = {};
    if (options.signal) call.signal = options.signal;
    if (options.retry !== undefined) call.retry = options.retry;
    if (options.headers) call.headers = options.headers;
    for (;;) {
      const job = await this.get(id, call);
      options.onProgress?.(job);
      if (ENDED_JOB_STATUSES.includes(job.status)) return job;
      const left = deadline - Date.now();
      if (left <= 0) {
        const message =
          `Job ${job.id} has not ended after ${timeoutMs} ms: it is ${job.status}, ` +
          `${job.rows.done} of ${job.rows.total} rows done.`;
        throw new TesseraError({ status: 0, code: 'timeout', message, body: job });
      }
      try {
        await sleep(Math.min(intervalMs, left), options.signal);
      } catch (cause) {
        throw abortedError(cause, 1);
      }
    }
  }

  /**
   * The job's result (GET /v2/jobs/{id}/result), streamed: read its bytes, lines or JSON lines as they arrive, in
   * constant memory (`saveJobResult` in `@tessera/client/node` writes it to a file). A job that has not ended is a
   * TesseraError with status 409 (`conflict`); one whose result was deleted, 410 (`gone`); each with the server's
   * message.
   */
  async result(id: string, options: CallOptions = {}): Promise<JobResult> {
    const done = await this.caller.stream({
      ...jsonCall('GET', `${PATH}/${encodeId(id)}/result`, options),
      accept: 'text/csv, application/x-ndjson',
      stream: true,
    });
    return new JobResult(done.response, done.meta, done.hooks);
  }

  private async job(exchange: Exchange): Promise<JobReplyWithMeta> {
    const reply = await this.caller.json(exchange);
    const job = reply.job;
    if (typeof job !== 'object' || job === null) throw badReply(reply.meta, reply, 'job');
    return withMeta({ ...(job as Job) }, reply.meta);
  }
}
