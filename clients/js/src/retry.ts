/** How the client waits between attempts: the retry settings merged, exponential backoff with jitter, a sleep that an abort ends. */
import type { RetryOptions } from './types.js';

export const DEFAULT_RETRY: Required<Omit<RetryOptions, 'onRetry'>> = {
  retries: 3,
  statuses: [429, 503],
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 120_000,
  networkErrors: true,
};

export type ResolvedRetry = Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;

export function resolveRetry(
  base: RetryOptions | false | undefined,
  call: RetryOptions | false | undefined,
): ResolvedRetry {
  if (base === false || call === false) return { ...DEFAULT_RETRY, retries: 0 };
  return { ...DEFAULT_RETRY, ...base, ...call };
}

/** Exponential backoff with jitter: about base * 2^(attempt - 1), capped, between half and all of it. */
export function backoff(retry: ResolvedRetry, attempt: number): number {
  const full = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(full / 2 + (Math.random() * full) / 2);
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A random UUID (v4), from WebCrypto where it is available. */
export function uuid(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof c?.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
