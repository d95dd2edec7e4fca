/** The one error class the client throws. */
import type { ErrorBody, ErrorCode } from './generated/openapi.js';

/**
 * What went wrong: the API's codes (`validation_failed`, `unauthorized`, `rate_limited`, ...) for replies of 400 and
 * above, and the client's own when no reply came: `timeout`, `aborted`, `network_error`; `invalid_response` for a
 * reply that could not be read; `http_error` for an error status whose body did not say.
 */
export type TesseraErrorCode = ErrorCode | 'timeout' | 'aborted' | 'network_error' | 'invalid_response' | 'http_error';

/** A field the server found wrong (with `validation_failed`). */
export type FieldError = NonNullable<ErrorBody['fields']>[number];

const BRAND = Symbol.for('tessera.client.TesseraError');

const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  451: 'legal_notice',
  500: 'internal',
  503: 'unavailable',
};

export interface TesseraErrorInit {
  status: number;
  code: TesseraErrorCode;
  message: string;
  requestId?: string | undefined;
  fields?: FieldError[] | undefined;
  retryAfterMs?: number | undefined;
  headers?: Headers | undefined;
  body?: unknown;
  attempts?: number;
  cause?: unknown;
}

/**
 * An error reply of the API (`status`, `code`, the server's `message`, `requestId`), or a call that got no reply
 * (`status` 0 with `timeout`, `aborted` or `network_error`).
 */
export class TesseraError extends Error {
  /** The HTTP status; 0 when no reply came. */
  readonly status: number;
  readonly code: TesseraErrorCode;
  /** The reply's X-Request-Id (also in its body): quote it when asking about a call. */
  readonly requestId: string | undefined;
  /** With `validation_failed`: each field that is wrong (`querystring.email`, `body.inputs.3.phone`). */
  readonly fields: FieldError[] | undefined;
  /** With 429 and 503: the reply's Retry-After, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  readonly headers: Headers | undefined;
  /** The reply's body: the parsed JSON error, or its text. */
  readonly body: unknown;
  /** Attempts made before giving up. */
  readonly attempts: number;

  constructor(init: TesseraErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'TesseraError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.fields = init.fields;
    this.retryAfterMs = init.retryAfterMs;
    this.headers = init.headers;
    this.body = init.body;
    this.attempts = init.attempts ?? 1;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for a TesseraError from any copy of this package (its ESM and CommonJS builds alike). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  /** The error of a reply of 400 and above; its body is read here. */
  static async fromResponse(response: Response, attempts = 1): Promise<TesseraError> {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : text;
    } catch {
      // not JSON: kept as text
    }
    const json = typeof body === 'object' && body !== null ? (body as Partial<ErrorBody>) : null;
    const headerId = response.headers.get('x-request-id') ?? undefined;
    const message =
      (typeof json?.error === 'string' && json.error) ||
      (typeof body === 'string' && body.trim().slice(0, 500)) ||
      response.statusText ||
      `HTTP ${response.status}`;
    return new TesseraError({
      status: response.status,
      code: (typeof json?.code === 'string' && json.code) || CODE_OF_STATUS[response.status] || 'http_error',
      message,
      requestId: (typeof json?.requestId === 'string' && json.requestId) || headerId,
      fields: Array.isArray(json?.fields) ? json.fields : undefined,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      headers: response.headers,
      body,
      attempts,
    });
  }
}

/** Retry-After in milliseconds: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function abortedError(cause: unknown, attempts: number): TesseraError {
  return new TesseraError({ status: 0, code: 'aborted', message: 'The call was aborted.', attempts, cause });
}

export const BROWSER_STREAM_HINT =
  ' (browsers send a stream body only over HTTP/2: upload a Blob or File instead, which any connection can carry)';

export const inBrowser = () => typeof window !== 'undefined' && typeof document !== 'undefined';

export function networkError(cause: unknown, url: string, attempts: number, hint = ''): TesseraError {
  const detail =
    cause instanceof Error
      ? `${cause.message}${cause.cause instanceof Error ? ` (${cause.cause.message})` : ''}`
      : String(cause);
  return new TesseraError({
    status: 0,
    code: 'network_error',
    message: `Could not reach ${new URL(url).origin}: ${detail}${hint}`,
    attempts,
    cause,
  });
}
