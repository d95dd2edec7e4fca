/** The query console's calls. A 403 step_up_required is claimed here (the page asks for the password instead). */
import type { ClusterSchema, QueryResult, QueryRun, SavedQuery } from '@tessera/common/query-console';
import { api, request } from '../../lib/api';

export interface RunInput {
  cluster: string;
  sql: string;
  maxRows: number;
  explain?: boolean;
  runId?: string;
}

export const needsStepUp = (status: number, body: unknown) =>
  status === 403 && (body as { code?: unknown } | null)?.code === 'step_up_required';

/** Query errors (400, 503) are shown beside the results rather than as alerts; the step-up prompt takes its 403. */
const claimQueryErrors = (status: number, body: unknown) =>
  needsStepUp(status, body) || status === 400 || status === 503;

export function runQuery(input: RunInput): Promise<QueryResult> {
  return request<QueryResult>('POST', '/v2/query', { body: input, claim: claimQueryErrors, merge: false });
}

/** The whole result as a CSV file, saved by the browser (spec §7 attachments). */
export function exportCsv(input: RunInput): Promise<unknown> {
  return request('POST', '/v2/query/csv', { body: input, claim: claimQueryErrors, merge: false });
}

export function cancelQuery(runId: string) {
  // Nothing left to cancel (it has just ended) is no news to show.
  return request('POST', '/v2/query/cancel', { body: { runId }, claim: (status) => status === 404 });
}

export function confirmPassword(password: string) {
  return request<{ confirmed: { at: string; until: string } }>('POST', '/auth/confirm', {
    body: { password },
    claim: (status) => status === 400,
  });
}

export const loadClusters = () => api.get<{ queryClusters: string[] }>('/v2/query/clusters');
export const loadSchema = (cluster: string) =>
  api.get<{ querySchema: { cluster: string; tables: ClusterSchema } }>('/v2/query/schema', { cluster });
export const loadHistory = () => api.get<{ queryHistory: QueryRun[] }>('/v2/query/history');
export const loadSaved = () => api.get<{ savedQueries: SavedQuery[] }>('/v2/saved-queries');
export const saveQuery = (input: { name: string; cluster: string; sql: string }) =>
  api.post<{ savedQuery: SavedQuery; savedQueries: SavedQuery[] }>('/v2/saved-queries', input);
export const deleteSavedQuery = (id: number) => api.del<{ savedQueries: SavedQuery[] }>(`/v2/saved-queries/${id}`);

/** A v4 UUID, also where crypto.randomUUID is missing (a plain-HTTP address other than localhost). */
export function newRunId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
