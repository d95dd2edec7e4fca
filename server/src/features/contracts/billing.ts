/**
 * Admission by contract (issue 5): before a lookup runs, its organization must have a contract in force and below
 * its monthly limit, or the call answers 402. Each process keeps its organizations' contract and month-to-date
 * spend for a few seconds or, under a monthly limit, a hundred calls (adding what it charges itself; decision 0051),
 * and drops them when a contract changes anywhere (the fan-out). Staff (super, root) are metered and priced but never refused for payment.
 */
import { type ContractStatus, PAYMENT_MESSAGES } from '@tessera/common/contracts';
import { hasRank, type Role } from '@tessera/common/roles';
import type { Database } from '../../db/client';
import { PaymentRequired } from '../../http/errors';
import type { Fanout } from '../../socket/fanout';
import { type Prices, toMicros } from './pricing';

export interface Terms extends Prices {
  contractId: number;
  rateLimit: number | null;
  /** Permissible purposes the organization's lookups may name (issue 34); null: none is required. */
  purposes: readonly string[] | null;
  /** The reading of the organization's spend the call was admitted on (charged() adds to that reading only). */
  readonly reading: object;
}

interface Standing {
  contract:
    | (Prices & {
        id: number;
        startsAt: number;
        endsAt: number;
        status: ContractStatus;
        monthlyLimit: number | null;
        rateLimit: number | null;
        purposes: readonly string[] | null;
      })
    | null;
  spentMicros: number;
  month: string;
  until: number;
  /** Calls admitted on this reading (counted only under a monthly limit). */
  admitted: number;
}

/** How long a reading of an organization's standing is used (decision 0051). */
export const KEEP_MS = 5_000;
/**
 * Under a monthly limit, the most calls of an organization a process admits on one reading (decision 0051): the
 * next call reads the spend again, so once the month's committed spend reaches the limit, a process admits at most
 * this many more of the organization's calls, however many processes there are and however fast they go.
 */
export const ADMITTED_PER_READING = 100;

const LOAD = `select c.id, c.starts_at, c.ends_at, c.status, c.price_per_request, c.price_per_identity, c.group_prices,
  c.monthly_limit, c.rate_limit, c.purposes,
  (select coalesce(sum(r.cost), 0) from usage_totals r where r.bucket = 'day' and r.organization_id = $1
     and r.at >= $2::timestamptz) as spent
from (select 1) one left join lateral (
  select * from contracts where organization_id = $1
  order by (starts_at <= now()) desc, case when starts_at <= now() then starts_at end desc nulls last, starts_at,
    id desc
  limit 1
) c on true`;

interface Row {
  id: number | null;
  starts_at: Date | string;
  ends_at: Date | string;
  status: ContractStatus;
  price_per_request: string;
  price_per_identity: string;
  group_prices: Record<string, number>;
  monthly_limit: string | null;
  rate_limit: number | null;
  purposes: string[] | null;
  spent: string;
}

const monthOf = (at: number) => new Date(at).toISOString().slice(0, 7);
const monthStart = (month: string) => `${month}-01T00:00:00Z`;
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString();
}

export interface Billing {
  /** The terms a call is priced by (null: priced at nothing); 402 when the caller's organization may not call. */
  admit(caller: { organizationId: number | null; role: Role }): Promise<Terms | null>;
  /** Adds a served call's cost to this process's count of its organization's spend (the reading it was admitted on). */
  charged(organizationId: number | null, micros: number, terms: Terms | null): void;
  /** Tells every process that an organization's contracts changed. */
  changed(organizationId: number): Promise<void>;
  /**
   * What is left of the monthly limit, in micro-dollars, as this process last read the organization's spend (plus
   * what it has charged since): null without a limit or terms. Other processes' calls since that reading are not in
   * it, so it may be a little high, never a figure of another organization.
   */
  allowanceLeft(terms: Terms | null): number | null;
}

export function createBilling(deps: { database: Database; fanout: Fanout; now?: () => number }): Billing {
  const { database, fanout } = deps;
  const now = deps.now ?? Date.now;
  const cache = new Map<number, Standing>();
  /** Readings under way: the calls that find their organization's reading spent wait for one, not one each. */
  const loading = new Map<number, { generation: number; month: string; standing: Promise<Standing> }>();
  let generation = 0;
  fanout.onMessage((m) => {
    if (m.kind === 'contractChanged') {
      generation++;
      cache.delete(m.organizationId);
      loading.delete(m.organizationId);
    }
  });

  async function standing(organizationId: number): Promise<Standing> {
    const at = now();
    const month = monthOf(at);
    const hit = cache.get(organizationId);
    if (hit && hit.until > at && hit.month === month && claim(hit)) return hit;
    const pending = loading.get(organizationId);
    if (pending && pending.generation === generation && pending.month === month) {
      const shared = await pending.standing;
      // A shared reading is one like any other: once its calls are spent, the next caller reads again.
      return claim(shared) ? shared : standing(organizationId);
    }
    const started = generation;
    const load = read(organizationId, at, month, started);
    loading.set(organizationId, { generation: started, month, standing: load });
    try {
      const fresh = await load;
      claim(fresh);
      return fresh;
    } finally {
      if (loading.get(organizationId)?.standing === load) loading.delete(organizationId);
    }
  }

  /**
   * Counts a call against a reading, in the same turn as the check (concurrent calls must not all see the last free
   * place): false when the reading's calls are spent. Only a monthly limit counts calls (nothing to overshoot else).
   */
  function claim(s: Standing): boolean {
    if (s.contract?.monthlyLimit == null) return true;
    if (s.admitted >= ADMITTED_PER_READING) return false;
    s.admitted++;
    return true;
  }

  async function read(organizationId: number, at: number, month: string, started: number): Promise<Standing> {
    const [row] = await database.query<Row>(LOAD, [organizationId, monthStart(month)], { prepare: true });
    const fresh: Standing = {
      contract:
        row && row.id !== null
          ? {
              id: row.id,
              startsAt: new Date(row.starts_at).getTime(),
              endsAt: new Date(row.ends_at).getTime(),
              status: row.status,
              pricePerRequest: Number(row.price_per_request),
              pricePerIdentity: Number(row.price_per_identity),
              groupPrices: row.group_prices,
              monthlyLimit: row.monthly_limit === null ? null : Number(row.monthly_limit),
              rateLimit: row.rate_limit,
              purposes: row.purposes && row.purposes.length > 0 ? row.purposes : null,
            }
          : null,
      spentMicros: toMicros(Number(row?.spent ?? 0)),
      month,
      until: at + KEEP_MS,
      admitted: 0,
    };
    if (generation === started) cache.set(organizationId, fresh);
    return fresh;
  }

  /** Why the organization may not call now, or null when it may. */
  function refusal(s: Standing, at: number): string | null {
    const c = s.contract;
    if (!c) return PAYMENT_MESSAGES.none;
    if (c.startsAt > at) return PAYMENT_MESSAGES.notStarted(new Date(c.startsAt).toISOString());
    if (c.endsAt <= at) return PAYMENT_MESSAGES.ended(new Date(c.endsAt).toISOString());
    if (c.status === 'suspended') return PAYMENT_MESSAGES.suspended;
    if (c.status === 'cancelled') return PAYMENT_MESSAGES.cancelled;
    if (c.monthlyLimit !== null && s.spentMicros >= toMicros(c.monthlyLimit)) {
      return PAYMENT_MESSAGES.limit(c.monthlyLimit, nextMonth(s.month));
    }
    return null;
  }

  return {
    async admit(caller) {
      const staff = hasRank(caller.role, 'super');
      if (caller.organizationId === null) {
        if (staff) return null;
        throw new PaymentRequired(PAYMENT_MESSAGES.noOrganization);
      }
      const s = await standing(caller.organizationId);
      const at = now();
      const why = refusal(s, at);
      if (why && !staff) throw new PaymentRequired(why);
      const c = s.contract;
      // Staff outside a contract in force are priced at nothing; inside one (over its limit too), as anyone.
      if (c?.status !== 'active' || c.startsAt > at || c.endsAt <= at) return null;
      return {
        contractId: c.id,
        pricePerRequest: c.pricePerRequest,
        pricePerIdentity: c.pricePerIdentity,
        groupPrices: c.groupPrices,
        rateLimit: c.rateLimit,
        purposes: c.purposes,
        reading: s,
      };
    },
    charged(organizationId, micros, terms) {
      if (organizationId === null || !terms) return;
      // Only to the reading the call was admitted on: a later reading may hold the call's committed usage already,
      // and adding it again would refuse the organization early. A call admitted on an older reading and committed
      // after the newer one was read goes uncounted until the next reading (at most ADMITTED_PER_READING or KEEP_MS).
      const s = cache.get(organizationId);
      if (s && s === terms.reading) s.spentMicros += micros;
    },
    allowanceLeft(terms) {
      const s = terms?.reading as Standing | undefined;
      const limit = s?.contract?.monthlyLimit;
      if (!s || limit === null || limit === undefined) return null;
      return Math.max(0, toMicros(limit) - s.spentMicros);
    },
    async changed(organizationId) {
      generation++;
      cache.delete(organizationId);
      await fanout.publish({ kind: 'contractChanged', organizationId });
    },
  };
}
