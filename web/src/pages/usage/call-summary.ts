/**
 * The calls table's Metrics column (spec §2's default columns end in "metrics"; issue 32): what one call counted,
 * beyond its inputs and the columns already shown, as short readable parts. Zeros are left out, so a call that
 * found nothing reads "No identities".
 */
import { CALL_METRICS, METRIC_LABELS, type UsageCall, type UsageMetric } from '@tessera/common/usage';
import { formatMetric } from './format';

/** How one call's figure reads, where the report's label (a sum over calls) would read oddly for a single call. */
const ONE_CALL: Partial<Record<UsageMetric, (value: string) => string>> = {
  bestMatchScores: (v) => `best match score ${v}`,
  milliseconds: (v) => `${v} ms`,
  cost: (v) => v,
};

export function callSummary(call: UsageCall, shown: readonly UsageMetric[]): string[] {
  const parts: string[] = [];
  for (const m of [...CALL_METRICS, 'cost'] as const) {
    if (m === 'inputs' || shown.includes(m) || !call[m]) continue;
    const value = formatMetric(m, call[m]);
    const special = ONE_CALL[m];
    parts.push(special ? special(value) : `${METRIC_LABELS[m].toLowerCase()} ${value}`);
  }
  if (!call.identities && !shown.includes('identities')) parts.unshift('no identities');
  if (parts.length) parts[0] = parts[0]!.charAt(0).toUpperCase() + parts[0]!.slice(1);
  return parts;
}
