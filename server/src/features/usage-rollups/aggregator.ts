/**
 * The usage rollup aggregator (decision 0045): adds the usage log's rows to the hourly and daily rollups (by key,
 * method and path, and by user alone) off the request path, exactly once. One run at a time across every process and
 * node: a run claims the watermark row (`for update skip locked`; a run that finds it taken does nothing). A row is
 * counted when the transaction that wrote it has ended: its txid is below the xmin of the run's snapshot, so no
 * transaction can still add a row below that line. The rows counted are those from the old watermark to that xmin;
 * the rollups and the new watermark commit together, so a crash half way counts nothing and the next run counts it
 * all. Readers add the rows at or past the watermark (`usage_totals`), so totals are exact before and after a run.
 */
import { CALL_METRICS, metricColumn } from '@tessera/common/usage';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

const METRIC_COLUMNS = CALL_METRICS.map(metricColumn);
const IDENTITY = ['organization_id', 'user_id', 'key_id', 'method', 'path'];

type Rows<T> = { rows: T[] };

/** A transaction id as SQL text, checked to be an integer: it is written into the statement, so it is planned for. */
const literal = (txid: string) => {
  if (!/^\d+$/.test(txid)) throw new Error(`not a transaction id: ${txid}`);
  return sql.raw(txid);
};

/**
 * The rollup rows of the log's rows with from <= txid < to, added to what the rollups hold; each keeps its bucket's
 * latest call (`last_at`, a key's last use to the moment): greatest() of both, as rows may commit out of time order.
 */
const roll = (from: string, to: string) => sql`
  with rolled as (
    insert into usage_rollups (bucket, at, ${sql.raw(IDENTITY.join(', '))}, requests,
      ${sql.raw(METRIC_COLUMNS.join(', '))}, cost, last_at)
    select * from (
      select b.bucket, date_trunc(b.unit, w.at, 'UTC'), coalesce(w.organization_id, 0), w.user_id,
        case when b.apart then coalesce(w.key_id, '') else '*' end, case when b.apart then w.method else '*' end,
        case when b.apart then w.path else '*' end, count(*),
        ${sql.raw(METRIC_COLUMNS.map((c) => `sum(w.${c})`).join(', '))}, sum(w.cost), max(w.at)
      from usage w cross join (values ('hour', 'hour', true), ('day', 'day', true), ('hour-user', 'hour', false),
        ('day-user', 'day', false)) as b(bucket, unit, apart)
      where w.txid >= ${literal(from)} and w.txid < ${literal(to)}
      group by 1, 2, 3, 4, 5, 6, 7
    ) g
    order by 1, 2, 3, 4, 5, 6, 7
    on conflict (bucket, at, ${sql.raw(IDENTITY.join(', '))}) do update
      set requests = usage_rollups.requests + excluded.requests,
      ${sql.raw(METRIC_COLUMNS.map((c) => `${c} = usage_rollups.${c} + excluded.${c}`).join(', '))},
      cost = usage_rollups.cost + excluded.cost,
      last_at = greatest(usage_rollups.last_at, excluded.last_at)
    returning requests
  )
  select count(*)::int as buckets from rolled`;

export interface AggregateResult {
  /** False when another run held the watermark: nothing was done. */
  claimed: boolean;
  /** The watermark before and after. */
  from: string | null;
  to: string | null;
  /** Rollup rows written or added to. */
  buckets: number;
}

/**
 * One run: the ended transactions' rows past the watermark into the rollups, and the watermark moved past them.
 * `beforeCommit` runs last inside the transaction (a test makes a run fail there, as a crash would).
 */
export async function aggregateUsage(
  database: Database,
  options: { beforeCommit?: () => Promise<void> } = {},
): Promise<AggregateResult> {
  return database.transaction(async (tx) => {
    const claimed = (await tx.execute(
      sql`select txid::text as txid from usage_rollup_watermark where id = 1 for update skip locked`,
    )) as unknown as Rows<{ txid: string }>;
    const from = claimed.rows[0]?.txid;
    if (from === undefined) return { claimed: false, from: null, to: null, buckets: 0 };
    const horizon = (await tx.execute(
      sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`,
    )) as unknown as Rows<{ xmin: string }>;
    const to = horizon.rows[0]!.xmin;
    if (BigInt(to) <= BigInt(from)) return { claimed: true, from, to: from, buckets: 0 };
    const rolled = (await tx.execute(roll(from, to))) as unknown as Rows<{ buckets: number }>;
    await tx.execute(sql`update usage_rollup_watermark set txid = ${literal(to)} where id = 1`);
    await options.beforeCommit?.();
    return { claimed: true, from, to, buckets: rolled.rows[0]?.buckets ?? 0 };
  });
}
