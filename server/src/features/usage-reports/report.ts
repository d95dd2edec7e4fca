/** The series and the totals of a usage report (issue 16), from the rollups and the part hours' rows (sources.ts). */
import { USAGE_METRICS, type UsagePoint, type UsageTotals } from '@tessera/common/usage';
import type { Database } from '../../db/client';
import { Params } from './filters';
import type { ReportQuery } from './query';
import type { Who } from './scope';
import { unionOf } from './sources';

/** Hours are absolute: stepping in UTC keeps both 1 a.m.s of the night the clocks go back. */
const hourBuckets = (from: string, to: string, tz: string) =>
  `select g as at from generate_series(date_trunc('hour', ${from}, ${tz}), ${to} - interval '1 microsecond',
    interval '1 hour') g`;

/** Days, weeks and months step in local time, so each is one bucket however long the clocks make it. */
const localBuckets = (from: string, to: string, tz: string, interval: string) =>
  `select g at time zone ${tz} as at from generate_series(date_trunc(${interval}, ${from} at time zone ${tz}),
    (${to} at time zone ${tz}) - interval '1 microsecond', ('1 ' || ${interval})::interval) g`;

/**
 * The metric summed by interval in the caller's zone, every bucket of the range present (zero when empty). The
 * buckets are made in local time, so a day across a DST change is still one day (23 or 25 hours).
 */
export async function seriesOf(database: Database, query: ReportQuery, who: Who): Promise<UsagePoint[]> {
  const params = new Params();
  const data = unionOf(query, who, params, { v: query.metric });
  const tz = params.add(query.tz, 'text');
  const interval = params.add(query.interval, 'text');
  const from = params.add(query.from.toISOString(), 'timestamptz');
  const to = params.add(query.to.toISOString(), 'timestamptz');
  const rows = await database.query<{ at: Date | string; value: string | number }>(
    `with data as (${data}),
     -- Summed by instant first (a rollup row per user and hour becomes one per hour), so the time-zone arithmetic
     -- runs once an hour rather than once a row.
     instants as (select at, sum(v) as v from data group by at),
     sums as (select date_trunc(${interval}, at, ${tz}) as at, sum(v) as v from instants group by 1),
     buckets as (${query.interval === 'hour' ? hourBuckets(from, to, tz) : localBuckets(from, to, tz, interval)})
     select b.at, coalesce(s.v, 0)::float8 as value from buckets b left join sums s on s.at = b.at order by b.at`,
    params.values,
  );
  return rows.map((row) => ({ at: new Date(row.at).toISOString(), value: Number(row.value) }));
}

/** Every metric summed over the range, `requests` and `cost` included. */
export async function totalsOf(database: Database, query: ReportQuery, who: Who): Promise<UsageTotals> {
  const params = new Params();
  const columns = Object.fromEntries(USAGE_METRICS.map((m) => [m, m]));
  const data = unionOf(query, who, params, columns);
  const [row] = await database.query<Record<string, string | number | null>>(
    `select ${USAGE_METRICS.map((m) => `coalesce(sum("${m}"), 0)::float8 as "${m}"`).join(', ')} from (${data}) d`,
    params.values,
  );
  return Object.fromEntries(USAGE_METRICS.map((m) => [m, Number(row?.[m] ?? 0)])) as UsageTotals;
}
