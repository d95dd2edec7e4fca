/** Spec §3 usage choices: the metrics every lookup call produces, and the methods and paths usage is charted by. */
import { LOOKUP_ENDPOINT_NAMES } from './lookups';

/** What one call counts, besides `requests` (one per call) and `cost` (priced by the contract). */
export const CALL_METRICS = [
  'inputs',
  'inputsWithIdentities',
  'identities',
  'identitiesWithBehaviors',
  'identitiesWithData',
  'identitiesWithDevices',
  'identitiesWithEmails',
  'identitiesWithIps',
  'identitiesWithPhones',
  'identitiesWithProperties',
  'identitiesWithVehicles',
  'identitiesWithFinances',
  'identitiesWithCompanies',
  'behaviors',
  'devices',
  'emails',
  'ips',
  'phones',
  'properties',
  'vehicles',
  'companies',
  'bestMatchScores',
  'milliseconds',
] as const;
export type CallMetric = (typeof CALL_METRICS)[number];
export type CallMetrics = Record<CallMetric, number>;

export const USAGE_METRICS = ['requests', ...CALL_METRICS, 'cost'] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];

export const USAGE_METHODS = ['*', 'GET', 'POST', 'PUT'] as const;
export const USAGE_PATHS = ['*', ...LOOKUP_ENDPOINT_NAMES.map((name) => `/${name}` as const)] as const;

export function emptyMetrics(): CallMetrics {
  return Object.fromEntries(CALL_METRICS.map((m) => [m, 0])) as CallMetrics;
}

/** A metric's column in the usage tables: identitiesWithEmails is identities_with_emails. */
export const metricColumn = (metric: string) => metric.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
