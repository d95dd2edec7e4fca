/** One call as the client makes it, and what comes back: shared by the lookups (client.ts), jobs and subscriptions. */
import type { PreparedBody } from './body.js';
import type { CsvReplyHooks } from './csv.js';
import type { CallOptions, ReplyMeta } from './types.js';

export interface Exchange {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path after the base URL, e.g. `/v2/identities/byEmail`. */
  path: string;
  query: URLSearchParams;
  accept: string;
  headers: Record<string, string>;
  body?: () => Promise<PreparedBody>;
  /** Whether the request can be sent again (its body is not a stream read once): then 429 and 503 are retried. */
  replayable: boolean;
  /** Sent as Idempotency-Key; a call without one is not repeated after getting no reply, unless it is a GET. */
  idempotencyKey: string | undefined;
  /** Hand back the reply as a stream (CSV, a job's result) rather than reading it whole (JSON). */
  stream: boolean;
  options: CallOptions;
}

export interface Exchanged {
  response: Response;
  meta: ReplyMeta;
  /** For a streamed reply: releasing the call, stopping it, and why it was aborted. */
  hooks: CsvReplyHooks;
  /** The JSON reply's text, read within the timeout. */
  text?: string;
}

/** How `client.jobs` and `client.subscriptions` call the API, with the client's key, retries and timeouts. */
export interface Caller {
  /** The parsed JSON reply, with `meta` (not enumerable). */
  json(exchange: Exchange): Promise<Record<string, unknown> & { readonly meta: ReplyMeta }>;
  /** A 2xx reply whose body is still to be read. */
  stream(exchange: Exchange): Promise<Exchanged>;
}

/** An exchange with no body and a JSON reply. */
export function jsonCall(
  method: Exchange['method'],
  path: string,
  options: CallOptions,
  query = new URLSearchParams(),
): Exchange {
  return {
    method,
    path,
    query,
    accept: 'application/json',
    headers: {},
    replayable: true,
    idempotencyKey: undefined,
    stream: false,
    options,
  };
}
