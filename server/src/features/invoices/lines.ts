/**
 * An invoice's lines (decision 0034): per contract in force during the month, the period it was in force (a
 * later-started contract takes over from an earlier one), and per price of that contract the quantity summed from
 * the hourly per-user rollups of the period. Amounts are quantity × unit price in SQL numeric: exact.
 */
import { PRICE_GROUPS } from '@tessera/common/contracts';
import { metricColumn, SUBSCRIPTION_EVENT_USAGE_PATH } from '@tessera/common/usage';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { rowsOf } from '../../db/rows';

export interface LineRow {
  organization_id: number;
  contract_id: number;
  price: string;
  period_start: Date | string;
  period_end: Date | string;
  quantity: string;
  unit_price: string;
  amount: string;
}

const groupColumn = (group: string) => metricColumn(`identitiesWith${group[0]!.toUpperCase()}${group.slice(1)}`);

/** 'YYYY-MM' → its first instant and the next month's, UTC. */
export function monthBounds(month: string): { start: Date; end: Date } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(y, m - 1, 1)), end: new Date(Date.UTC(y, m, 1)) };
}

/** Every line of the month, for one organization or (null) all with a contract in force during it (and no invoice). */
export async function monthLines(
  db: Executor,
  month: string,
  organizationId: number | null,
  unbilledOnly = false,
): Promise<LineRow[]> {
  const { start, end } = monthBounds(month);
  const prices = sql.join(
    [
      // Change events (decision 0067) are usage rows of their own path, priced per event and not as requests.
      sql`(0, 'request', c.price_per_request::numeric, s.requests - s.events)`,
      sql`(1, 'identity', c.price_per_identity::numeric, s.identities)`,
      ...PRICE_GROUPS.map(
        (g, i) =>
          sql`(${sql.raw(String(i + 2))}, ${g}::text, (c.group_prices ->> ${g})::numeric, s.${sql.raw(`g_${groupColumn(g)}`)})`,
      ),
      sql`(${sql.raw(String(PRICE_GROUPS.length + 2))}, 'event',
        case when c.price_per_event > 0 or s.events > 0 then c.price_per_event::numeric end, s.events)`,
    ],
    sql`, `,
  );
  const sums = sql.join(
    PRICE_GROUPS.map((g) => sql.raw(`coalesce(sum(r.${groupColumn(g)}), 0) as g_${groupColumn(g)}`)),
    sql`, `,
  );
  const result = await db.execute(sql`
    with periods as (
      select c.id as contract_id, c.organization_id,
        greatest(c.starts_at, ${start.toISOString()}::timestamptz) as period_start,
        least(c.ends_at, ${end.toISOString()}::timestamptz,
          coalesce(lead(c.starts_at) over (partition by c.organization_id order by c.starts_at, c.id), 'infinity')
        ) as period_end
      from contracts c
      where c.starts_at < ${end.toISOString()}::timestamptz and c.ends_at > ${start.toISOString()}::timestamptz
        and (${organizationId}::int is null or c.organization_id = ${organizationId}::int)
        ${unbilledOnly ? sql`and not exists (select 1 from invoices i where i.organization_id = c.organization_id and i.month = ${month})` : sql``}
    ), sums as (
      select p.contract_id, p.organization_id, p.period_start, p.period_end,
        coalesce(sum(r.requests), 0) as requests, coalesce(sum(r.identities), 0) as identities, ${sums},
        (select coalesce(sum(e.requests), 0) from usage_totals e where e.bucket = 'hour'
          and e.organization_id = p.organization_id and e.path = ${SUBSCRIPTION_EVENT_USAGE_PATH}
          and e.at >= p.period_start and e.at < p.period_end) as events
      from periods p left join usage_totals r on r.bucket = 'hour-user' and r.organization_id = p.organization_id
        and r.at >= p.period_start and r.at < p.period_end
      where p.period_start < p.period_end
      group by p.contract_id, p.organization_id, p.period_start, p.period_end
    )
    select s.organization_id, s.contract_id, v.price, s.period_start, s.period_end, v.quantity::text as quantity,
      v.unit_price::numeric(14, 6)::text as unit_price, (v.quantity * v.unit_price)::numeric(24, 6)::text as amount
    from sums s join contracts c on c.id = s.contract_id
      cross join lateral (values ${prices}) as v(n, price, unit_price, quantity)
    where v.unit_price is not null
    order by s.organization_id, s.period_start, s.contract_id, v.n`);
  return rowsOf<LineRow>(result);
}
