/**
 * Where a report's numbers come from (issue 16). The hourly and daily rollups hold whole UTC hours and days, so a
 * range is cut into pieces: the rollups for the whole hours (and whole days, when the caller's days are UTC days
 * and the interval is a day or longer) and the usage rows for the part hours at its ends. Sums over the pieces
 * equal sums over the rows, for any range. A zone whose offset is not whole hours (India, Nepal, Newfoundland)
 * cannot be bucketed from UTC hours: its reports read the rows.
 */
import { CALL_METRICS, metricColumn, type UsageInterval } from '@tessera/common/usage';
import { filterConditions, type Params } from './filters';
import type { ReportQuery } from './query';
import type { Who } from './scope';
import { offsetsOver } from './time-zones';

export type Source = 'rows' | 'hour' | 'day';
export interface Piece {
  source: Source;
  from: Date;
  to: Date;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;
const ceilTo = (t: number, unit: number) => Math.ceil(t / unit) * unit;

/** The pieces of [from, to), in order, none empty. */
export function piecesOf(from: Date, to: Date, tz: string, interval: UsageInterval): Piece[] {
  const offsets = offsetsOver(tz, from, to);
  const wholeHours = [...offsets].every((m) => m % 60 === 0);
  const h1 = ceilTo(from.getTime(), HOUR);
  const h2 = floorTo(to.getTime(), HOUR);
  if (!wholeHours || h1 >= h2) return [{ source: 'rows', from, to }];
  const out: Piece[] = [];
  const push = (source: Source, a: number, b: number) => {
    if (a < b) out.push({ source, from: new Date(a), to: new Date(b) });
  };
  push('rows', from.getTime(), h1);
  const utcDays = interval !== 'hour' && offsets.size === 1 && offsets.has(0);
  const d1 = ceilTo(h1, DAY);
  const d2 = floorTo(h2, DAY);
  if (utcDays && d1 < d2) {
    push('hour', h1, d1);
    push('day', d1, d2);
    push('hour', d2, h2);
  } else {
    push('hour', h1, h2);
  }
  push('rows', h2, to.getTime());
  return out;
}

/** Every metric's column, `requests` (one a row in usage) and `cost` included, named by the metric. */
export function metricExpression(metric: string, source: Source): string {
  if (metric === 'requests') return source === 'rows' ? '1' : 'requests';
  if (metric === 'cost') return 'cost';
  if (!(CALL_METRICS as readonly string[]).includes(metric)) throw new Error(`Unknown metric ${metric}`);
  return metricColumn(metric);
}

/**
 * One `select at, <columns>` over every piece, joined by union all. `columns` maps an output name to a metric.
 * The filters' placeholders are made once and shared by every piece.
 */
export function unionOf(query: ReportQuery, who: Who, params: Params, columns: Record<string, string>): string {
  const filters = filterConditions(who, query, params);
  // Without key, method and path filters each user's calls are read already summed (decision 0028).
  const suffix = who.keyId === undefined && query.method === '*' && query.path === '*' ? '-user' : '';
  return piecesOf(query.from, query.to, query.tz, query.interval)
    .map((piece) => {
      const conditions = [
        ...filters,
        `at >= ${params.add(piece.from.toISOString(), 'timestamptz')}`,
        `at < ${params.add(piece.to.toISOString(), 'timestamptz')}`,
      ];
      if (piece.source !== 'rows') conditions.unshift(`bucket = '${piece.source}${suffix}'`);
      const table = piece.source === 'rows' ? 'usage' : 'usage_totals';
      const selected = Object.entries(columns).map(
        ([name, metric]) => `${metricExpression(metric, piece.source)} as "${name}"`,
      );
      return `select at, ${selected.join(', ')} from ${table} where ${conditions.join(' and ')}`;
    })
    .join('\nunion all\n');
}
