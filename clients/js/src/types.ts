/** The client's own types: options of the client and of each call, and what calls return. */
import type { CsvReply } from './csv.js';
import type { TesseraError } from './errors.js';
import type {
  BatchResult,
  BodyOptions,
  FullIdentity,
  Identity,
  LookupResult,
  QueryOptions,
  UploadQueryOptions,
} from './generated/openapi.js';

export type { CsvReply } from './csv.js';

/** How the API key is presented (docs/api-keys.md). */
export type AuthMode = 'plain' | 'signed' | 'legacy';

/** When and how failed calls are tried again. */
export interface RetryOptions {
  /** Further attempts after the first (default 3; 0 turns retries off). */
  retries?: number;
  /** Statuses worth another attempt (default 429 and 503). */
  statuses?: readonly number[];
  /** The first backoff when the reply has no Retry-After, doubled each attempt (default 500 ms). */
  baseDelayMs?: number;
  /** The longest backoff when the reply has no Retry-After (default 10,000 ms). */
  maxDelayMs?: number;
  /**
   * The longest Retry-After honoured (default 120,000 ms): a reply asking for a longer wait is thrown at once, its
   * `retryAfter` saying how long.
   */
  maxRetryAfterMs?: number;
  /**
   * Whether a call that got no reply (connection refused or reset, a timeout before the reply) is tried again, with
   * the same backoff (default true). Only where it is safe: a GET, or a POST or PUT that carries an Idempotency-Key
   * (sent by default), whose repeat the server answers with the first reply instead of running it again.
   */
  networkErrors?: boolean;
  /** Called before each wait, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
}

/** A failed attempt that will be tried again after `delayMs`. */
export interface RetryEvent {
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Its error (status, code, message, request id). */
  error: TesseraError;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** The reply's Retry-After in milliseconds, when it had one (then `delayMs` equals it). */
  retryAfterMs: number | undefined;
  method: string;
  url: string;
  /** The Idempotency-Key, the same for every attempt of a POST or PUT. */
  idempotencyKey: string | undefined;
}

/** What every call can be given besides the API's own options. */
export interface CallOptions {
  /** Cancels the call (and the reading of a streamed reply). */
  signal?: AbortSignal;
  /**
   * Milliseconds each attempt may take until its reply has arrived: the whole JSON reply, or the start of a CSV
   * reply (the client's `timeoutMs` by default).
   */
  timeoutMs?: number;
  /** Retries for this call, over the client's (false: none). */
  retry?: RetryOptions | false;
  /** More request headers. */
  headers?: Record<string, string>;
}

/** Options of a POST or PUT. */
export interface WriteCallOptions extends CallOptions {
  /**
   * The Idempotency-Key sent with the call, the same on every retry (1-255 visible ASCII characters). By default a
   * random UUID is made for each call; false sends none.
   */
  idempotencyKey?: string | false;
}

/** Options of a single lookup: the API's (template, minScore, explain, limit, format) and the call's. */
export interface LookupOptions extends QueryOptions, CallOptions {}

/** Options of a batch lookup: the API's (template, minScore, explain, limit, format) and the call's. */
export interface BatchOptions extends BodyOptions, WriteCallOptions {}

/** Options of a CSV upload: the API's (template, minScore, explain, limit) and the call's. */
export interface CsvUploadOptions extends UploadQueryOptions, WriteCallOptions {
  /**
   * Whether the reply may come compressed (default true). The server compresses a streamed reply in blocks, so its
   * first rows can wait until tens of kilobytes have gathered; false asks for it uncompressed
   * (`Accept-Encoding: identity`), so every batch of rows arrives as it is written. Node only: a browser chooses
   * the encoding itself.
   */
  compression?: boolean;
}

/** CSV text, bytes or a stream of them; a function giving one makes the upload repeatable, so it can be retried. */
export type CsvBody =
  | string
  | Blob
  | ArrayBuffer
  | ArrayBufferView
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Iterable<Uint8Array | string>;

/**
 * What a CSV upload reads: text, bytes, a Blob or File, a web ReadableStream, a Node stream (any async iterable of
 * chunks), or a function returning one of these for each attempt. Text, bytes, Blobs and functions can be sent
 * again, so they are retried on 429 and 503; a stream is read once, so its upload is not.
 */
export type CsvSource = CsvBody | (() => CsvBody | Promise<CsvBody>);

/** The RateLimit headers of a reply, when the call was limited (docs/api-keys.md). */
export interface RateLimitInfo {
  /** Requests a minute of the tighter limit. */
  limit: number | undefined;
  /** Requests left in its window. */
  remaining: number | undefined;
  /** Seconds until it serves again (on a 429, equal to Retry-After). */
  reset: number | undefined;
  /** The limits that apply, e.g. `"key";q=100;w=60`. */
  policy: string | undefined;
}

/** What a lookup answered whole cost (X-Call-Cost) and what is left of the month's allowance, in USD. */
export interface ChargeInfo {
  /** What the call cost; 0 with a test key; undefined where not sent (a streamed CSV reply, a replay, usage calls). */
  cost: number | undefined;
  /**
   * What is left of the organization's monthly limit, as the answering server process last knew its spend (so it
   * may be slightly high under load); undefined without a monthly limit and with a test key.
   */
  allowanceRemaining: number | undefined;
}

/** A usage query: times as ISO 8601 text with an offset, or as Dates. */
export type UsageQuery<Q> = Omit<Q, 'from' | 'to'> & { from?: string | Date; to?: string | Date };

/** A usage report's reply (its one data area, e.g. `usageCalls`), with `meta` (not enumerable). */
export type UsageReply<R> = R[keyof R] & { readonly meta: ReplyMeta };

/** About the HTTP exchange behind a reply. */
export interface ReplyMeta {
  status: number;
  /** X-Request-Id: quote it when asking about a call. */
  requestId: string | undefined;
  headers: Headers;
  /** True when the reply is the kept one of an earlier call with the same Idempotency-Key (not run or charged). */
  replayed: boolean;
  /** The Idempotency-Key sent, if any. */
  idempotencyKey: string | undefined;
  /** Attempts made, 1 when the first succeeded. */
  attempts: number;
  rateLimit: RateLimitInfo;
  /** X-Call-Cost and X-Monthly-Allowance-Remaining (docs/api-keys.md). */
  charge: ChargeInfo;
}

/**
 * The reply to a single lookup, as the API sent it (`requestId`, `identities`), with `meta` about the exchange.
 * `meta` is not enumerable, so `JSON.stringify` gives the API's reply exactly.
 */
export interface LookupReply<I = FullIdentity> extends Omit<LookupResult, 'identities'> {
  identities: I[];
  readonly meta: ReplyMeta;
}

/** One input's result in a batch. */
export type BatchItem<I = FullIdentity> = Omit<BatchResult['results'][number], 'identities'> & { identities: I[] };

/** The reply to a batch lookup (`requestId`, `results` in the order of the inputs), with `meta` (not enumerable). */
export interface BatchReply<I = FullIdentity> extends Omit<BatchResult, 'results'> {
  results: BatchItem<I>[];
  readonly meta: ReplyMeta;
}

/** The identity type a call's options give: FullIdentity with the Full template (1, the default), else Identity. */
export type IdentityFor<O> = O extends { template: infer T }
  ? [T] extends [1 | undefined]
    ? FullIdentity
    : Identity
  : FullIdentity;

/** What a single lookup with options `O` returns: a streamed CsvReply with `format: 'csv'`, else a LookupReply. */
export type LookupReplyFor<O> = O extends { format: 'csv' } ? CsvReply : LookupReply<IdentityFor<O>>;

/** What a batch lookup with options `O` returns: a streamed CsvReply with `format: 'csv'`, else a BatchReply. */
export type BatchReplyFor<O> = O extends { format: 'csv' } ? CsvReply : BatchReply<IdentityFor<O>>;

/** The client's settings. */
export interface ClientOptions {
  /** The server's address, e.g. `https://tessera.example.com` (no path). */
  baseUrl: string;
  /** The whole API key, key id followed by secret (48 characters), as shown once when the key was made. */
  apiKey: string;
  /**
   * How the key is presented: `plain` sends it as is; `signed` sends the key id, the time and an HMAC-SHA256 of
   * the time keyed with the secret, so the secret never travels (the clock must be within 5 minutes of the
   * server's); `legacy` the original API's MD5 form, for keys made with `legacy` on. Default `plain`.
   */
  auth?: AuthMode;
  /** Default for each call's `timeoutMs` (30,000 ms). */
  timeoutMs?: number;
  /** Retries on 429 and 503 (see RetryOptions); false: none. */
  retry?: RetryOptions | false;
  /** A fetch to use instead of the global one (a proxy agent, a test double). */
  fetch?: typeof fetch;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
}
