/**
 * Spec §3 usage metrics of a lookup call, counted from what it returned (after record-type limits, before the
 * template): inputs, those with identities, identities, identities having each record type, records of each
 * countable type, and the sum of each input's best score.
 */
import { type CallMetrics, emptyMetrics } from '@tessera/common/usage';
import type { Match } from './engine';

const LISTS = ['behaviors', 'devices', 'emails', 'ips', 'phones', 'properties', 'vehicles', 'companies'] as const;
const WITH = {
  identitiesWithBehaviors: 'behaviors',
  identitiesWithDevices: 'devices',
  identitiesWithEmails: 'emails',
  identitiesWithIps: 'ips',
  identitiesWithPhones: 'phones',
  identitiesWithProperties: 'properties',
  identitiesWithVehicles: 'vehicles',
  identitiesWithCompanies: 'companies',
} as const;

const hasAny = (value: unknown) =>
  Array.isArray(value) ? value.length > 0 : !!value && typeof value === 'object' && Object.keys(value).length > 0;

/** Adds one input's results to `into`. */
export function countInput(into: CallMetrics, matches: readonly Match[]): void {
  into.inputs++;
  if (matches.length === 0) return;
  into.inputsWithIdentities++;
  into.bestMatchScores += Math.max(...matches.map((m) => m.score));
  for (const { record } of matches) {
    into.identities++;
    for (const [metric, type] of Object.entries(WITH)) {
      if (hasAny(record[type])) into[metric as keyof typeof WITH]++;
    }
    if (hasAny(record.data)) into.identitiesWithData++;
    if (hasAny(record.finances)) into.identitiesWithFinances++;
    for (const list of LISTS) into[list] += (record[list] as unknown[] | undefined)?.length ?? 0;
  }
}

export function countResults(results: readonly (readonly Match[])[]): CallMetrics {
  const metrics = emptyMetrics();
  for (const matches of results) countInput(metrics, matches);
  return metrics;
}
