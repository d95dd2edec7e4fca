/**
 * The playground's request, all of it in the query string (spec §2, issue 17) so a copied link reproduces it, at
 * the spec's defaults when absent: GET, the by-any path, output csv, no template, auto-fetch on, parameter pane 50.
 * Only what differs from a default is written, so a plain /playground is the default request.
 */
import { PANE_SIZES } from '@tessera/common/constants';
import { type InputName, LOOKUP_ENDPOINT_NAMES, LOOKUP_ENDPOINTS, type LookupEndpoint } from '@tessera/common/lookups';
import { PLAYGROUND_DEFAULTS } from '@tessera/common/settings';

export const METHODS = ['GET', 'POST', 'PUT'] as const;
export type Method = (typeof METHODS)[number];
export const FORMATS = ['csv', 'json'] as const;
export type Format = (typeof FORMATS)[number];

export const LOOKUP_BASE = '/v2/identities/';
const DEFAULT_ENDPOINT = PLAYGROUND_DEFAULTS.path.slice(LOOKUP_BASE.length) as LookupEndpoint;

export interface PlaygroundState {
  method: Method;
  endpoint: LookupEndpoint;
  format: Format;
  /** A template id as typed in the select; '' for none (the API's default, Full). */
  template: string;
  minScore: string;
  limit: string;
  explain: boolean;
  autoFetch: boolean;
  /** The parameter pane's share of the width, 20-80. */
  pane: number;
  /** GET inputs of the endpoint, by name; absent or '' when not given. */
  inputs: Partial<Record<InputName, string>>;
  /** POST: one input per line, or CSV with a header row. */
  batch: string;
}

export const DEFAULT_STATE: PlaygroundState = {
  method: PLAYGROUND_DEFAULTS.method,
  endpoint: DEFAULT_ENDPOINT,
  format: PLAYGROUND_DEFAULTS.output,
  template: PLAYGROUND_DEFAULTS.template === null ? '' : String(PLAYGROUND_DEFAULTS.template),
  minScore: '',
  limit: '',
  explain: false,
  autoFetch: PLAYGROUND_DEFAULTS.autoFetch,
  pane: PLAYGROUND_DEFAULTS.paneSize,
  inputs: {},
  batch: '',
};

const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (list as readonly string[]).includes(value) ? (value as T) : fallback;

export const inputsOf = (endpoint: LookupEndpoint): readonly InputName[] => LOOKUP_ENDPOINTS[endpoint];

/** A pane share kept to what the panes allow (each at least 20 %). */
export function clampPane(value: unknown): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : PANE_SIZES[0];
  return Math.min(80, Math.max(20, Math.round(n)));
}

/** The request in the query string; a pane size it does not name is `paneSize` (the one the settings remember). */
export function parseState(search: URLSearchParams, paneSize: number = DEFAULT_STATE.pane): PlaygroundState {
  const endpoint = oneOf(LOOKUP_ENDPOINT_NAMES, search.get('path'), DEFAULT_STATE.endpoint);
  const inputs: PlaygroundState['inputs'] = {};
  for (const name of inputsOf(endpoint)) {
    const value = search.get(name);
    if (value !== null && value !== '') inputs[name] = value;
  }
  const pane = search.get('pane');
  return {
    method: oneOf(METHODS, search.get('method'), DEFAULT_STATE.method),
    endpoint,
    format: oneOf(FORMATS, search.get('format'), DEFAULT_STATE.format),
    template: /^\d{1,10}$/.test(search.get('template') ?? '') ? String(search.get('template')) : '',
    minScore: search.get('minScore') ?? '',
    limit: search.get('limit') ?? '',
    explain: search.get('explain') === 'true',
    autoFetch: search.get('auto') !== 'off',
    pane: pane === null ? clampPane(paneSize) : clampPane(Number(pane)),
    inputs,
    batch: search.get('batch') ?? '',
  };
}

/** The query string of a state: only what differs from the defaults. */
export function stateSearch(state: PlaygroundState): URLSearchParams {
  const out = new URLSearchParams();
  const put = (name: string, value: string, fallback: string) => {
    if (value !== fallback) out.set(name, value);
  };
  put('method', state.method, DEFAULT_STATE.method);
  put('path', state.endpoint, DEFAULT_STATE.endpoint);
  put('format', state.format, DEFAULT_STATE.format);
  put('template', state.template, '');
  put('minScore', state.minScore, '');
  put('limit', state.limit, '');
  put('explain', state.explain ? 'true' : '', '');
  put('auto', state.autoFetch ? '' : 'off', '');
  put('pane', String(state.pane), String(DEFAULT_STATE.pane));
  if (state.method === 'GET') {
    // Kept as typed (a trailing space is the start of the next word), dropped when blank.
    for (const name of inputsOf(state.endpoint)) {
      const value = state.inputs[name] ?? '';
      if (value.trim() !== '') out.set(name, value);
    }
  }
  if (state.method === 'POST') put('batch', state.batch, '');
  return out;
}

/** Changing the endpoint keeps only the inputs the new one takes. */
export function withEndpoint(state: PlaygroundState, endpoint: LookupEndpoint): PlaygroundState {
  const inputs: PlaygroundState['inputs'] = {};
  for (const name of inputsOf(endpoint)) if (state.inputs[name]) inputs[name] = state.inputs[name];
  return { ...state, endpoint, inputs };
}

/** The options every method shares, as the API names them (query string of GET and PUT, body of POST). */
export function optionsOf(state: PlaygroundState): Record<string, string> {
  const out: Record<string, string> = { format: state.format };
  if (state.template) out.template = state.template;
  if (state.minScore.trim()) out.minScore = state.minScore.trim();
  if (state.limit.trim()) out.limit = state.limit.trim();
  if (state.explain) out.explain = 'true';
  return out;
}

/** The URL of a GET (inputs and options) or of a POST or PUT (options of a PUT only; a POST's are in its body). */
export function requestUrl(state: PlaygroundState): string {
  const params = new URLSearchParams();
  if (state.method === 'GET') {
    for (const name of inputsOf(state.endpoint)) {
      const value = state.inputs[name]?.trim();
      if (value) params.set(name, value);
    }
  }
  if (state.method !== 'POST') for (const [k, v] of Object.entries(optionsOf(state))) params.set(k, v);
  const qs = params.toString();
  return `${LOOKUP_BASE}${state.endpoint}${qs ? `?${qs}` : ''}`;
}
