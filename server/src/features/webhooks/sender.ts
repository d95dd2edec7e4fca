/**
 * One attempt at a delivery (decision 0066): a POST of the exact body with the Standard Webhooks headers, over a
 * connection of its own whose address is checked as it is made (addresses.ts), never following a redirect (a 3xx is
 * a failed attempt), within WEBHOOK_TIMEOUT_MS from the first byte out to the last byte read, and reading at most
 * WEBHOOK_LIMITS.responseReadBytes of the answer before hanging up. Nothing here logs: the URL may hold a token.
 */
import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_LIMITS } from '@tessera/common/webhooks';
import ipaddr from 'ipaddr.js';
import { BlockedAddressError, bareHost, connectProblem, guardedLookup } from './addresses';

export interface AttemptResult {
  /** The receiver's status, or null when no answer came. */
  statusCode: number | null;
  /** Why there is no status (refused, timed out, the connection failed); null when there is one. */
  error: string | null;
  latencyMs: number;
  /** The start of the answer's body as text, at most responseExcerptBytes bytes. */
  excerpt: string;
}

export interface Attempt {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}

export const USER_AGENT = 'Tessera-Webhooks/1';

/** Text PostgreSQL can keep from the first bytes of an answer: no NUL, no half character at the cut. */
function excerptOf(bytes: Buffer): string {
  const head = bytes.subarray(0, WEBHOOK_LIMITS.responseExcerptBytes);
  let text = head.toString('utf8');
  if (head.length < bytes.length || text.endsWith('\uFFFD')) text = text.replace(/\uFFFD+$/, '');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL cannot be stored in a text column
  return text.replace(/\u0000/g, '').replace(/[\uD800-\uDFFF]/g, '');
}

const ERRORS: Record<string, string> = {
  ECONNREFUSED: 'The connection was refused.',
  ECONNRESET: 'The connection was reset.',
  ENOTFOUND: 'The host could not be resolved.',
  EAI_AGAIN: 'The host could not be resolved (temporary failure).',
  EHOSTUNREACH: 'The host is unreachable.',
  ENETUNREACH: 'The network is unreachable.',
  EPIPE: 'The connection was closed while sending.',
  CERT_HAS_EXPIRED: 'TLS: the certificate has expired.',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: the certificate is self-signed.',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: a certificate in the chain is self-signed.',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: the certificate could not be verified.',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: the certificate is not for this host.',
};

function describe(error: unknown): string {
  if (error instanceof BlockedAddressError) return error.message;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && ERRORS[code]) return ERRORS[code];
  return typeof code === 'string' ? `The request failed (${code}).` : 'The request failed.';
}

/** Sends one attempt and answers what happened; never throws. */
export function sendAttempt(attempt: Attempt): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      resolve({ ...result, latencyMs: elapsed() });
    };
    const fail = (error: string) => finish({ statusCode: null, error, excerpt: '' });
    const timer = setTimeout(() => fail(`No answer within ${attempt.timeoutMs} ms.`), attempt.timeoutMs);
    let request: http.ClientRequest | undefined;

    const url = new URL(attempt.url);
    const plain = url.protocol === 'http:';
    const host = bareHost(url);
    // A literal address is connected to without a lookup: it is checked here instead.
    const literal = ipaddr.isValid(host)
      ? connectProblem(host, { allowPrivate: attempt.allowPrivate, http: plain })
      : null;
    if (literal) return fail(`${url.hostname} is ${literal}: not sent.`);

    const body = Buffer.from(attempt.body, 'utf8');
    request = (plain ? http : https).request(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup({ allowPrivate: attempt.allowPrivate, http: plain }),
      headers: {
        ...attempt.headers,
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': USER_AGENT,
      },
    });
    request.on('error', (error) => fail(describe(error)));
    request.on('response', (response) => {
      // Only the excerpt (and a byte past it, to tell a cut) is kept; the rest is read and dropped, up to the cap.
      const keep = WEBHOOK_LIMITS.responseExcerptBytes + 1;
      const chunks: Buffer[] = [];
      let read = 0;
      const done = () =>
        finish({ statusCode: response.statusCode ?? null, error: null, excerpt: excerptOf(Buffer.concat(chunks)) });
      response.on('data', (chunk: Buffer) => {
        if (read < keep) chunks.push(chunk.subarray(0, keep - read));
        read += chunk.length;
        if (read >= WEBHOOK_LIMITS.responseReadBytes) done(); // enough: hang up rather than read on
      });
      response.on('end', done);
      response.on('error', done);
      response.on('aborted', done);
    });
    request.end(body);
  });
}
