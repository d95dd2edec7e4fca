/** The client: requests, authorization, retries, timeouts and idempotency keys around the generated lookups. */
import { Authorizer } from './auth.js';
import { isReplayable, prepareBody } from './body.js';
import { CsvReply, type CsvReplyHooks } from './csv.js';
import { abortedError, BROWSER_STREAM_HINT, inBrowser, networkError, TesseraError } from './errors.js';
import type { Caller, Exchange, Exchanged } from './exchange.js';
import {
  ENDPOINTS,
  type Endpoint,
  type EndpointBatchInputs,
  type EndpointInputs,
  Lookups,
  STRING_INPUT,
  type UsageCalls,
  type UsageCallsQuery,
  type UsageSeries,
  type UsageSeriesQuery,
  type UsageTotals,
  type UsageTotalsQuery,
} from './generated/openapi.js';
import { Jobs } from './jobs.js';
import { chargeOf, rateLimitOf, withMeta } from './reply-meta.js';
import { batchInput, idText, setOptions, usageSearch } from './request-parts.js';
import { backoff, type ResolvedRetry, resolveRetry, sleep, uuid } from './retry.js';
import { Subscriptions } from './subscriptions.js';
import type {
  BatchOptions,
  BatchReplyFor,
  CallOptions,
  ClientOptions,
  CsvSource,
  CsvUploadOptions,
  LookupOptions,
  LookupReplyFor,
  ReplyMeta,
  RetryOptions,
  UsageQuery,
  UsageReply,
} from './types.js';
import { VERSION } from './version.js';

const LOOKUP_PATH = '/v2/identities/';
const DEFAULT_TIMEOUT_MS = 30_000;
const QUERY_OPTIONS = ['template', 'minScore', 'explain', 'limit', 'format'] as const;
const UPLOAD_OPTIONS = ['template', 'minScore', 'explain', 'limit'] as const;

/**
 * A client of the Tessera lookup API.
 *
 * ```js
 * const client = new TesseraClient({ baseUrl: 'https://tessera.example.com', apiKey: process.env.TESSERA_API_KEY });
 * const { identities } = await client.byEmail('someone@example.com');
 * ```
 */
export class TesseraClient extends Lookups {
  /** The package's version. */
  static readonly VERSION = VERSION;
  /** The lookup endpoints, for `lookup`, `batch` and `uploadCsv`. */
  static readonly ENDPOINTS = ENDPOINTS;

  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** Bulk jobs: a CSV of any length looked up in the background (POST /v2/jobs and after). */
  readonly jobs: Jobs;
  /** Change subscriptions: an `identity.changed` webhook event each time a subscribed identity changes. */
  readonly subscriptions: Subscriptions;
  private readonly authorizer: Authorizer;
  private readonly retry: RetryOptions | false | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;

  constructor(options: ClientOptions) {
    super();
    if (!options || typeof options.baseUrl !== 'string' || !/^https?:\/\//i.test(options.baseUrl)) {
      throw new TypeError('baseUrl is needed: the server address, such as https://tessera.example.com');
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.authorizer = new Authorizer(options.apiKey, options.auth ?? 'plain');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = options.retry;
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('No fetch: use Node 20 or later, or pass options.fetch.');
    this.fetchImpl = (input, init) => fetchImpl(input, init);
    this.headers = { ...options.headers };
    const caller: Caller = {
      json: (x) => this.reply(x, false) as ReturnType<Caller['json']>,
      stream: (x) => this.exchange(x),
    };
    this.jobs = new Jobs(caller);
    this.subscriptions = new Subscriptions(caller);
  }

  /** How the key is presented: plain, signed or legacy. */
  get auth() {
    return this.authorizer.mode;
  }

  async lookup<E extends Endpoint, const O extends LookupOptions = LookupOptions>(
    endpoint: E,
    input: EndpointInputs[E],
    options?: O,
  ): Promise<LookupReplyFor<O>> {
    const opts: LookupOptions = options ?? {};
    const query = new URLSearchParams();
    if (typeof input === 'string' || typeof input === 'number') {
      const name = STRING_INPUT[endpoint];
      if (!name) throw new TypeError(`${endpoint} takes named inputs (an object), not a ${typeof input}.`);
      if (typeof input === 'number' && name !== 'id') throw new TypeError(`${endpoint} takes its ${name} as text.`);
      query.set(name, typeof input === 'number' ? idText(input) : input);
    } else if (input && typeof input === 'object') {
      for (const [name, value] of Object.entries(input)) {
        if (value !== undefined && value !== null)
          query.set(name, typeof value === 'number' ? idText(value) : String(value));
      }
    } else {
      throw new TypeError(`${endpoint} takes a string or an object of named inputs.`);
    }
    setOptions(query, opts, QUERY_OPTIONS);
    const csv = opts.format === 'csv';
    return (await this.reply(
      {
        method: 'GET',
        path: LOOKUP_PATH + endpoint,
        query,
        accept: csv ? 'text/csv' : 'application/json',
        headers: {},
        replayable: true,
        idempotencyKey: undefined,
        stream: csv,
        options: opts,
      },
      csv,
    )) as LookupReplyFor<O>;
  }

  async batch<E extends Endpoint, const O extends BatchOptions = BatchOptions>(
    endpoint: E,
    inputs: readonly EndpointBatchInputs[E][],
    options?: O,
  ): Promise<BatchReplyFor<O>> {
    const opts: BatchOptions = options ?? {};
    if (!Array.isArray(inputs)) throw new TypeError('A batch is an array of inputs.');
    const body: Record<string, unknown> = { inputs: inputs.map(batchInput) };
    for (const name of QUERY_OPTIONS) if (opts[name] !== undefined) body[name] = opts[name];
    const json = JSON.stringify(body);
    const csv = opts.format === 'csv';
    return (await this.reply(
      {
        method: 'POST',
        path: LOOKUP_PATH + endpoint,
        query: new URLSearchParams(),
        accept: csv ? 'text/csv' : 'application/json',
        headers: { 'content-type': 'application/json' },
        body: async () => ({ body: json, stream: false, stop: () => undefined }),
        replayable: true,
        idempotencyKey: opts.idempotencyKey === false ? undefined : (opts.idempotencyKey ?? uuid()),
        stream: csv,
        options: opts,
      },
      csv,
    )) as BatchReplyFor<O>;
  }

  async uploadCsv(endpoint: Endpoint, source: CsvSource, options?: CsvUploadOptions): Promise<CsvReply> {
    const opts: CsvUploadOptions = options ?? {};
    if (!ENDPOINTS.includes(endpoint)) throw new TypeError(`Unknown endpoint ${String(endpoint)}.`);
    const query = new URLSearchParams();
    setOptions(query, opts, UPLOAD_OPTIONS);
    const headers: Record<string, string> = { 'content-type': 'text/csv' };
    if (opts.compression === false) headers['accept-encoding'] = 'identity';
    return (await this.reply(
      {
        method: 'PUT',
        path: LOOKUP_PATH + endpoint,
        query,
        accept: 'text/csv',
        headers,
        body: () => prepareBody(source),
        replayable: isReplayable(source),
        idempotencyKey: opts.idempotencyKey === false ? undefined : (opts.idempotencyKey ?? uuid()),
        stream: true,
        options: opts,
      },
      true,
    )) as CsvReply;
  }

  /**
   * A metric over a range, bucket by bucket (GET /v2/usage/series): the key's own calls, or with an organization
   * administrator's key the organization's. Default: requests a day over the month up to now.
   */
  usageSeries(query: UsageQuery<UsageSeriesQuery> = {}, options?: CallOptions): Promise<UsageReply<UsageSeries>> {
    return this.usage<UsageSeries>('/v2/usage/series', 'usageSeries', query, options);
  }

  /** Every metric, requests and cost included, summed over a range (GET /v2/usage/totals). */
  usageTotals(query: UsageQuery<UsageTotalsQuery> = {}, options?: CallOptions): Promise<UsageReply<UsageTotals>> {
    return this.usage<UsageTotals>('/v2/usage/totals', 'usageTotals', query, options);
  }

  /** A page of calls (GET /v2/usage/calls), newest first by default: pass `next` as `after` for the next page. */
  usageCalls(query: UsageQuery<UsageCallsQuery> = {}, options?: CallOptions): Promise<UsageReply<UsageCalls>> {
    return this.usage<UsageCalls>('/v2/usage/calls', 'usageCalls', query, options);
  }

  private async usage<R>(
    path: string,
    area: keyof R & string,
    query: object,
    options: CallOptions | undefined,
  ): Promise<UsageReply<R>> {
    const reply = (await this.reply(
      {
        method: 'GET',
        path,
        query: usageSearch(query),
        accept: 'application/json',
        headers: {},
        replayable: true,
        idempotencyKey: undefined,
        stream: false,
        options: options ?? {},
      },
      false,
    )) as R & { meta: ReplyMeta };
    const inner = reply[area] as unknown;
    if (typeof inner !== 'object' || inner === null) {
      throw new TesseraError({
        status: reply.meta.status,
        code: 'invalid_response',
        message: `The reply had no ${area}.`,
        requestId: reply.meta.requestId,
        body: reply,
        attempts: reply.meta.attempts,
      });
    }
    return withMeta({ ...inner }, reply.meta) as UsageReply<R>;
  }

  /** Runs an exchange and makes its reply: a CsvReply, or the parsed JSON with `meta`. */
  private async reply(exchange: Exchange, csv: boolean): Promise<unknown> {
    const done = await this.exchange(exchange);
    if (csv) return new CsvReply(done.response, done.meta, done.hooks);
    let parsed: unknown;
    try {
      parsed = JSON.parse(done.text ?? '');
    } catch (cause) {
      throw new TesseraError({
        status: done.meta.status,
        code: 'invalid_response',
        message: `The reply was not JSON (${done.response.headers.get('content-type') ?? 'no content type'}).`,
        requestId: done.meta.requestId,
        headers: done.meta.headers,
        body: done.text,
        attempts: done.meta.attempts,
        cause,
      });
    }
    if (typeof parsed !== 'object' || parsed === null) {
      throw new TesseraError({
        status: done.meta.status,
        code: 'invalid_response',
        message: 'The reply was not a JSON object.',
        requestId: done.meta.requestId,
        body: parsed,
        attempts: done.meta.attempts,
      });
    }
    return withMeta(parsed, done.meta);
  }

  /**
   * Sends the request, retrying 429 and 503 as configured, each attempt within the timeout; and a call that got no
   * reply where a repeat is safe (a GET, or a POST or PUT under an Idempotency-Key).
   */
  private async exchange(x: Exchange): Promise<Exchanged> {
    const retry = resolveRetry(this.retry, x.options.retry);
    const attempts = x.replayable ? Math.max(0, retry.retries) + 1 : 1;
    const timeoutMs = x.options.timeoutMs ?? this.timeoutMs;
    const search = x.query.toString();
    const url = `${this.baseUrl}${x.path}${search ? `?${search}` : ''}`;
    const signal = x.options.signal;

    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw abortedError(signal.reason, attempt - 1);
      const headers: Record<string, string> = {
        accept: x.accept,
        'user-agent': `tessera-js/${VERSION}`,
        ...x.headers,
        ...this.headers,
        ...x.options.headers,
        authorization: await this.authorizer.header(),
      };
      if (x.idempotencyKey) headers['idempotency-key'] = x.idempotencyKey;

      const prepared = x.body ? await x.body() : undefined;
      const controller = new AbortController();
      let reason: TesseraError | undefined;
      /** Ends the attempt: the request, its reply, and the reading of a streamed upload's source. */
      const stop = (why: TesseraError) => {
        reason ??= why;
        controller.abort(why);
        prepared?.stop();
      };
      const timer = setTimeout(() => {
        const message = `No reply from ${x.method} ${x.path} within ${timeoutMs} ms.`;
        stop(new TesseraError({ status: 0, code: 'timeout', message, attempts: attempt }));
      }, timeoutMs);
      const onAbort = () => stop(abortedError(signal?.reason, attempt));
      signal?.addEventListener('abort', onAbort, { once: true });
      const release = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const hooks: CsvReplyHooks = {
        done: release,
        stop: () => {
          controller.abort(abortedError('The CSV reply was cancelled.', attempt));
          prepared?.stop();
        },
        abortReason: () => reason,
      };

      let response: Response;
      try {
        const init: RequestInit & { duplex?: 'half' } = { method: x.method, headers, signal: controller.signal };
        if (prepared) {
          init.body = prepared.body;
          if (prepared.stream) init.duplex = 'half';
        }
        response = await this.fetchImpl(url, init);
      } catch (cause) {
        release();
        prepared?.stop();
        const hint = prepared?.stream && inBrowser() ? BROWSER_STREAM_HINT : '';
        const error = reason ?? networkError(cause, url, attempt, hint);
        const safe = x.method === 'GET' || x.idempotencyKey !== undefined;
        const noReply = error.code === 'network_error' || error.code === 'timeout';
        if (!noReply || !safe || !retry.networkErrors || attempt >= attempts) throw error;
        await this.wait(retry, x, url, attempt, error, undefined);
        continue;
      }

      const meta: ReplyMeta = {
        status: response.status,
        requestId: response.headers.get('x-request-id') ?? undefined,
        headers: response.headers,
        replayed: response.headers.get('idempotent-replayed') === 'true',
        idempotencyKey: x.idempotencyKey,
        attempts: attempt,
        rateLimit: rateLimitOf(response.headers),
        charge: chargeOf(response.headers),
      };

      if (response.ok) {
        if (x.stream) {
          clearTimeout(timer);
          return { response, meta, hooks };
        }
        try {
          const text = await response.text();
          return { response, meta, hooks, text };
        } catch (cause) {
          throw reason ?? networkError(cause, url, attempt);
        } finally {
          release();
        }
      }

      let error: TesseraError;
      try {
        error = await TesseraError.fromResponse(response, attempt);
      } finally {
        release();
        // An upload refused while it is still being sent need not go on.
        if (prepared?.stream) {
          controller.abort();
          prepared.stop();
        }
      }
      if (reason) throw reason;
      if (attempt >= attempts || !retry.statuses.includes(response.status)) throw error;
      const retryAfterMs = error.retryAfterMs;
      if (retryAfterMs !== undefined && retryAfterMs > retry.maxRetryAfterMs) throw error;
      await this.wait(retry, x, url, attempt, error, retryAfterMs);
    }
  }

  /** Waits before the next attempt: the Retry-After given, else the backoff; tells `onRetry` first. */
  private async wait(
    retry: ResolvedRetry,
    x: Exchange,
    url: string,
    attempt: number,
    error: TesseraError,
    retryAfterMs: number | undefined,
  ): Promise<void> {
    const delayMs = retryAfterMs ?? backoff(retry, attempt);
    retry.onRetry?.({ attempt, error, delayMs, retryAfterMs, method: x.method, url, idempotencyKey: x.idempotencyKey });
    try {
      await sleep(delayMs, x.options.signal);
    } catch (cause) {
      throw abortedError(cause, attempt);
    }
  }
}
