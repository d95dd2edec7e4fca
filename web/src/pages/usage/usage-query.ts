/**
 * The usage page's state, all of it in the query string (issue 16), at the spec's defaults when absent (§2: widget
 * chart, range month, interval day, metric requests), and the API query it makes.
 */
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import { isKeyId } from '@tessera/common/key-settings';
import { USAGE_DEFAULTS } from '@tessera/common/settings';
import {
  USAGE_INTERVALS,
  USAGE_METHODS,
  USAGE_METRICS,
  USAGE_PATHS,
  type UsageInterval,
  type UsageMetric,
} from '@tessera/common/usage';
import { type Who, whoQuery } from '../../lib/usage-scope';

// Shared with the home page (lib/usage-scope.ts); re-exported for this page's modules and tests.
export { browserTimeZone, defaultWho, type Who, whoQuery } from '../../lib/usage-scope';

/** Columns of the calls table beyond the spec's defaults that are not metrics (issue 32). */
export const CALL_DETAIL_COLUMNS = ['key', 'status'] as const;
export type CallColumn = UsageMetric | (typeof CALL_DETAIL_COLUMNS)[number];
const CHOOSABLE_COLUMNS: readonly string[] = [...CALL_DETAIL_COLUMNS, ...USAGE_METRICS];

export const RANGES = ['day', 'week', 'month', 'quarter', 'year', 'custom'] as const;
export type Range = (typeof RANGES)[number];
export const WIDGETS = ['chart', 'calls'] as const;
export type Widget = (typeof WIDGETS)[number];

export interface UsageState {
  widget: Widget;
  range: Range;
  /** Only for a custom range: ISO 8601 instants. */
  from: string;
  to: string;
  interval: UsageInterval;
  metric: UsageMetric;
  who: Who;
  method: (typeof USAGE_METHODS)[number];
  path: (typeof USAGE_PATHS)[number];
  /** One API key's calls only (issue 32), or '' for every key and the console. */
  key: string;
  sort: string;
  pageSize: number;
  /** Extra columns chosen for the calls table: the key, the outcome, more metrics. */
  columns: CallColumn[];
}

const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (list as readonly string[]).includes(value) ? (value as T) : fallback;

const WHO = /^(me|organization|all|user:\d+|organization:\d+)$/;
const validInstant = (value: string | null) => (value && !Number.isNaN(Date.parse(value)) ? value : '');

export function parseUsageState(search: URLSearchParams, defaultWho: Who, defaultPageSize: number): UsageState {
  const pageSize = Number(search.get('pageSize'));
  return {
    widget: oneOf(WIDGETS, search.get('widget'), USAGE_DEFAULTS.widget),
    range: oneOf(RANGES, search.get('range'), USAGE_DEFAULTS.range),
    from: validInstant(search.get('from')),
    to: validInstant(search.get('to')),
    interval: oneOf(USAGE_INTERVALS, search.get('interval'), USAGE_DEFAULTS.interval),
    metric: oneOf(USAGE_METRICS, search.get('metric'), USAGE_DEFAULTS.metric),
    who: WHO.test(search.get('who') ?? '') ? (search.get('who') as Who) : defaultWho,
    method: oneOf(USAGE_METHODS, search.get('method'), '*'),
    path: oneOf(USAGE_PATHS, search.get('path'), '*'),
    key: isKeyId(search.get('key') ?? '') ? (search.get('key') as string) : '',
    sort: search.get('sort') || '-at',
    pageSize: (TABLE_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : defaultPageSize,
    columns: (search.get('columns') ?? '').split(',').filter((c): c is CallColumn => CHOOSABLE_COLUMNS.includes(c)),
  };
}

/** The query string of a state: only what differs from the defaults, so a plain /usage is the default view. */
export function usageSearch(state: UsageState, defaultWho: Who, defaultPageSize: number): URLSearchParams {
  const out = new URLSearchParams();
  const put = (name: string, value: string, fallback: string) => {
    if (value !== fallback) out.set(name, value);
  };
  put('widget', state.widget, USAGE_DEFAULTS.widget);
  put('range', state.range, USAGE_DEFAULTS.range);
  if (state.range === 'custom') {
    put('from', state.from, '');
    put('to', state.to, '');
  }
  put('interval', state.interval, USAGE_DEFAULTS.interval);
  put('metric', state.metric, USAGE_DEFAULTS.metric);
  put('who', state.who, defaultWho);
  put('method', state.method, '*');
  put('path', state.path, '*');
  put('key', state.key, '');
  put('sort', state.sort, '-at');
  put('pageSize', String(state.pageSize), String(defaultPageSize));
  put('columns', state.columns.join(','), '');
  return out;
}

/** The start of a preset range ending at `now`. */
export function rangeStart(range: Exclude<Range, 'custom'>, now: Date): Date {
  const out = new Date(now);
  if (range === 'day') out.setDate(out.getDate() - 1);
  else if (range === 'week') out.setDate(out.getDate() - 7);
  else if (range === 'month') out.setMonth(out.getMonth() - 1);
  else if (range === 'quarter') out.setMonth(out.getMonth() - 3);
  else out.setFullYear(out.getFullYear() - 1);
  return out;
}

/** The instants a state covers: a preset ends now; a custom range as chosen (its end defaults to now). */
export function rangeOf(state: UsageState, now: Date): { from: Date; to: Date } {
  if (state.range === 'custom') {
    const to = state.to ? new Date(state.to) : now;
    return { from: state.from ? new Date(state.from) : rangeStart('month', to), to };
  }
  return { from: rangeStart(state.range, now), to: now };
}

/** The query every report call shares. */
export function reportQuery(
  state: UsageState,
  self: { id: number; organizationId: number | null },
  now: Date,
  tz: string,
): Record<string, string | number> {
  const { from, to } = rangeOf(state, now);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    tz,
    ...whoQuery(state.who, self),
    ...(state.method === '*' ? {} : { method: state.method }),
    ...(state.path === '*' ? {} : { path: state.path }),
    ...(state.key ? { keyId: state.key } : {}),
  };
}
