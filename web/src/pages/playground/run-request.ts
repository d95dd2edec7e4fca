/**
 * Sends the playground's request with the console session (metered to the user, as every lookup is) and reads
 * the reply whole, or for a PUT as it streams. A failure is returned, never thrown, so the page shows it in place.
 */
import { REQUESTED_WITH_HEADER } from '@tessera/common/entities';
import type { BatchInput } from './batch';
import { optionsOf, type PlaygroundState, requestUrl } from './playground-state';

export interface Reply {
  status: number;
  /** Milliseconds from sending to the last byte. */
  ms: number;
  /** Bytes of the body as received (after any decompression). */
  bytes: number;
  requestId: string;
  headers: [string, string][];
  contentType: string;
  text: string;
  /** The server's error text for a status of 400 or above, or why no answer came. */
  error: string | null;
  /** A PUT stopped by Cancel. */
  cancelled?: boolean;
}

/** A POST body's options typed as the API documents them. */
export function postBody(state: PlaygroundState, inputs: BatchInput[]): Record<string, unknown> {
  const body: Record<string, unknown> = { inputs };
  for (const [k, v] of Object.entries(optionsOf(state))) {
    body[k] = k === 'format' ? v : k === 'explain' ? v === 'true' : Number(v);
  }
  return body;
}

function errorOf(status: number, text: string): string | null {
  if (status < 400) return null;
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON: the text itself
  }
  return text.trim().slice(0, 300) || `The server answered ${status}.`;
}

const bytesOf = (text: string) => new TextEncoder().encode(text).length;

function headersOf(res: Response): [string, string][] {
  const out: [string, string][] = [];
  res.headers.forEach((value, name) => {
    out.push([name, value]);
  });
  return out.sort(([a], [b]) => a.localeCompare(b));
}

function failed(started: number, error: unknown, signal: AbortSignal): Reply {
  const cancelled = signal.aborted;
  return {
    status: 0,
    ms: Math.round(performance.now() - started),
    bytes: 0,
    requestId: '',
    headers: [],
    contentType: '',
    text: '',
    error: cancelled ? 'Cancelled.' : `The server could not be reached (${String(error)}).`,
    cancelled,
  };
}

export async function runRequest(
  state: PlaygroundState,
  options: { signal: AbortSignal; inputs?: BatchInput[]; file?: File; onChunk?: (chunk: string) => void },
): Promise<Reply> {
  const headers: Record<string, string> = {
    accept: state.format === 'csv' ? 'text/csv' : 'application/json',
    [REQUESTED_WITH_HEADER]: 'XMLHttpRequest',
  };
  let body: BodyInit | undefined;
  if (state.method === 'POST') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(postBody(state, options.inputs ?? []));
  } else if (state.method === 'PUT') {
    headers['content-type'] = 'text/csv';
    body = options.file;
  }
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(requestUrl(state), {
      method: state.method,
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    return failed(started, error, options.signal);
  }
  let text = '';
  let cancelled = false;
  try {
    if (res.body && options.onChunk) {
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        text += chunk;
        options.onChunk(chunk);
      }
      text += decoder.decode();
    } else text = await res.text();
  } catch (error) {
    if (!options.signal.aborted) return failed(started, error, options.signal);
    cancelled = true;
  }
  return {
    status: res.status,
    ms: Math.round(performance.now() - started),
    bytes: bytesOf(text),
    requestId: res.headers.get('x-request-id') ?? '',
    headers: headersOf(res),
    contentType: res.headers.get('content-type') ?? '',
    text,
    error: errorOf(res.status, text),
    cancelled,
  };
}
