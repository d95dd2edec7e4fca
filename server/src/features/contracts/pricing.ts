/** What a call costs under a contract, in millionths of a dollar: exact integers, summed without drift. */
import type { Contract } from '@tessera/common/contracts';
import { PRICE_GROUPS } from '@tessera/common/contracts';
import type { CallMetric, CallMetrics } from '@tessera/common/usage';

export type Prices = Pick<Contract, 'pricePerRequest' | 'pricePerIdentity' | 'groupPrices'>;

export const toMicros = (dollars: number) => Math.round(dollars * 1_000_000);

const withGroup = (group: string) => `identitiesWith${group[0]!.toUpperCase()}${group.slice(1)}` as CallMetric;

/** Per request, plus per identity returned, plus per identity returned holding each priced group's records. */
export function costMicros(prices: Prices, metrics: CallMetrics): number {
  let micros = toMicros(prices.pricePerRequest) + toMicros(prices.pricePerIdentity) * metrics.identities;
  for (const group of PRICE_GROUPS) {
    const price = prices.groupPrices[group];
    if (price) micros += toMicros(price) * metrics[withGroup(group)];
  }
  return micros;
}
