/**
 * Spec §7-8 client: JSON in and out, keyed replies merged into the store, errors handled by status.
 * Attachment replies are saved as files.
 */

import { REQUESTED_WITH_HEADER } from '@tessera/common/entities';
import { errorTitle, STATUS_NAMES } from '@tessera/common/errors';
import { ENROL_LOCATION, TWO_FACTOR_MESSAGES } from '@tessera/common/two-factor';
import { navigate } from './navigator';
import { logout } from './session';
import { useStore } from './store';
import { uploadName } from './upload-name';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/** The text an error alert shows: the body's error text, else the standard name, else the code. */
export function errorText(status: number, body: unknown): string {
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
    return (body as { error: string }).error;
  }
  if (typeof body === 'string' && body.trim() !== '' && body.length < 300) return body.trim();
  return STATUS_NAMES[status] ?? String(status);
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text; // an unparseable body is plain text
  }
}

function saveAttachment(blob: Blob, disposition: string): void {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const name = match?.[1] ? decodeURIComponent(match[1]) : 'download';
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function handleError(status: number, body: unknown): void {
  const store = useStore.getState();
  if (status === 401 && store.self.id !== 0) {
    void logout();
    return;
  }
  // REQUIRE_2FA_FOR_STAFF: staff without two-factor sign-in are sent to turn it on (decision 0063).
  if (status === 403 && errorText(status, body) === TWO_FACTOR_MESSAGES.required) {
    if (window.location.pathname !== '/profile') navigate(ENROL_LOCATION);
    else store.addAlert({ type: 'error', title: errorTitle(status), text: TWO_FACTOR_MESSAGES.required });
    return;
  }
  const page = status === 451 ? '/terms' : status === 403 ? '/error/403' : status === 404 ? '/error/404' : null;
  if (page) {
    navigate(page);
    return;
  }
  store.addAlert({ type: 'error', title: errorTitle(status), text: errorText(status, body) });
}

export async function request<T = Record<string, unknown>>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: {
    query?: Query;
    body?: unknown;
    form?: FormData;
    /** Takes an error reply off the usual handling (alert, error page) when it returns true; the call still throws. */
    claim?: (status: number, body: unknown) => boolean;
    /** false: the reply is not a keyed object for the store (a query result, say). */
    merge?: boolean;
    /** More request headers, e.g. If-Match with the version an edit form loaded. */
    headers?: Record<string, string>;
  } = {},
): Promise<T> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    [REQUESTED_WITH_HEADER]: 'XMLHttpRequest',
    ...options.headers,
  };
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(withQuery(path, options.query), { method, headers, body, credentials: 'same-origin' });
  const disposition = res.headers.get('content-disposition') ?? '';
  if (res.ok && /^attachment/i.test(disposition)) {
    saveAttachment(await res.blob(), disposition);
    return {} as T;
  }
  const parsed = await readBody(res);
  if (!res.ok) {
    if (!options.claim?.(res.status, parsed)) handleError(res.status, parsed);
    throw new ApiError(res.status, parsed, errorText(res.status, parsed));
  }
  if (options.merge !== false && parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    useStore.getState().merge(parsed as Record<string, unknown>);
  }
  return parsed as T;
}

export const api = {
  get: <T = Record<string, unknown>>(path: string, query?: Query) => request<T>('GET', path, { query }),
  post: <T = Record<string, unknown>>(path: string, body?: unknown) => request<T>('POST', path, { body }),
  put: <T = Record<string, unknown>>(path: string, body?: unknown) => request<T>('PUT', path, { body }),
  del: <T = Record<string, unknown>>(path: string) => request<T>('DELETE', path),
  /** Multipart POST; the file is named by its content hash and lowercase extension. */
  async upload<T = Record<string, unknown>>(path: string, file: File, fields: Record<string, string> = {}) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', file, await uploadName(file));
    return request<T>('POST', path, { form });
  },
};

/** A 400 body's failing fields by their last path segment: `body.email` → `email`. */
export function fieldErrors(body: unknown): Record<string, string> {
  const fields = (body as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(fields)) return {};
  const errors: Record<string, string> = {};
  for (const field of fields as { path?: unknown; message?: unknown }[]) {
    if (typeof field.path !== 'string' || typeof field.message !== 'string') continue;
    const name = field.path.split('.').pop() ?? field.path;
    errors[name] ??= field.message;
  }
  return errors;
}
