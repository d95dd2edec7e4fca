/** Numbers of the usage figures (usage and home pages): counts with separators, cost in the one money format. */
import { formatMoney } from '@tessera/common/money';
import type { UsageMetric } from '@tessera/common/usage';

const count = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export function formatMetric(metric: UsageMetric | string, value: number, short = false): string {
  if (metric === 'cost') return formatMoney(value);
  return short && Math.abs(value) >= 10_000 ? compact.format(value) : count.format(value);
}

/** A share as a percentage with one decimal, or a dash when there is nothing to divide by. */
export function formatShare(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)} %` : '—';
}
