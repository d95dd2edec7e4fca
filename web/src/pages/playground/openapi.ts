/**
 * The GET parameters of a lookup as the OpenAPI document (`GET /v2/openapi.json`) describes them: the form is made
 * from these, each input with its description and example. Read once per page load; until it arrives, or if it
 * cannot be read, the same inputs come from common/lookups.ts, which the document is made from.
 */
import { INPUT_DESCRIPTIONS, type InputName, type LookupEndpoint } from '@tessera/common/lookups';
import { useEffect, useState } from 'react';
import { inputsOf, LOOKUP_BASE } from './playground-state';

export interface ParamInfo {
  name: string;
  required: boolean;
  description: string;
  example?: string;
}

type OpenApiDoc = { paths?: Record<string, Record<string, { parameters?: unknown[] }>> };

export const OPTION_NAMES = new Set(['template', 'minScore', 'explain', 'limit', 'format']);

let loading: Promise<OpenApiDoc | null> | null = null;

export function loadOpenApi(): Promise<OpenApiDoc | null> {
  loading ??= fetch('/v2/openapi.json', { headers: { accept: 'application/json' }, credentials: 'same-origin' })
    .then((res) => (res.ok ? (res.json() as Promise<OpenApiDoc>) : null))
    .catch(() => null);
  return loading;
}

/** For tests: forget the document read. */
export function resetOpenApi(): void {
  loading = null;
}

export function fallbackParams(endpoint: LookupEndpoint): ParamInfo[] {
  const single = inputsOf(endpoint).length === 1;
  return inputsOf(endpoint).map((name) => ({
    name,
    required: single || (endpoint === 'byPii' && (name === 'firstName' || name === 'lastName')),
    description: INPUT_DESCRIPTIONS[name],
  }));
}

/** The operation's query inputs (options left out: the page has its own controls for them). */
export function paramsFrom(doc: OpenApiDoc | null, endpoint: LookupEndpoint, method = 'get'): ParamInfo[] | null {
  const list = doc?.paths?.[`${LOOKUP_BASE}${endpoint}`]?.[method]?.parameters;
  if (!Array.isArray(list)) return null;
  const known = new Set<string>(inputsOf(endpoint));
  const out: ParamInfo[] = [];
  for (const raw of list as Record<string, unknown>[]) {
    const name = typeof raw.name === 'string' ? raw.name : '';
    if (raw.in !== 'query' || OPTION_NAMES.has(name) || !known.has(name)) continue;
    out.push({
      name,
      required: raw.required === true,
      description:
        typeof raw.description === 'string' ? raw.description : (INPUT_DESCRIPTIONS[name as InputName] ?? ''),
      example: raw.example === undefined || raw.example === null ? undefined : String(raw.example),
    });
  }
  return out.length > 0 ? out : null;
}

export function useLookupParams(endpoint: LookupEndpoint): ParamInfo[] {
  const [doc, setDoc] = useState<OpenApiDoc | null>(null);
  useEffect(() => {
    let live = true;
    void loadOpenApi().then((d) => {
      if (live) setDoc(d);
    });
    return () => {
      live = false;
    };
  }, []);
  return paramsFrom(doc, endpoint) ?? fallbackParams(endpoint);
}
