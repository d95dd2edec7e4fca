/** Spec §3 usage choices: the metrics every lookup call produces, and the methods and paths usage is charted by. */
import { LOOKUP_ENDPOINT_NAMES } from './lookups';
import { SEGMENT_USAGE_PATH } from './segments';

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
/**
 * A template preview of a real identity (POST /v2/templates/preview with a sample): looked up and priced as byId, but
 * listed as what it is (issue 32), not as a byId call the caller never made.
 */
export const TEMPLATE_PREVIEW_USAGE_PATH = '/templates/preview';
/** A change event of a subscribed identity delivered to a webhook (issue 33 item 2), priced per event. */
export const SUBSCRIPTION_EVENT_USAGE_PATH = '/subscriptions/event';

/** What a usage row's path may be: a lookup endpoint, a segment export (issue 19) or a template preview (issue 32). */
export const USAGE_PATHS = [
  '*',
  ...LOOKUP_ENDPOINT_NAMES.map((name) => `/${name}` as const),
  SEGMENT_USAGE_PATH,
  TEMPLATE_PREVIEW_USAGE_PATH,
  SUBSCRIPTION_EVENT_USAGE_PATH,
] as const;

/** Paths that are not lookups the caller called, named for what they are. */
const PATH_LABELS: Record<string, string> = {
  [SEGMENT_USAGE_PATH]: 'Segment export',
  [TEMPLATE_PREVIEW_USAGE_PATH]: 'Template preview',
  [SUBSCRIPTION_EVENT_USAGE_PATH]: 'Change event',
};

/**
 * A call as people read it, the same in the calls table, the path filter and the CSV export: a lookup as its method
 * and path (`GET /byEmail`), a segment export or template preview by name. Without a method: the path's name alone.
 */
export function callLabel(path: string, method?: string): string {
  const named = PATH_LABELS[path];
  if (named) return named;
  return method ? `${method} ${path}` : path;
}

/** What an HTTP status of a metered call means (issue 32: the calls table's Status column). */
export function callOutcome(status: number): string {
  if (status >= 200 && status < 300) return 'Served';
  if (status === 422) return 'Template failed';
  return 'Failed';
}

export function emptyMetrics(): CallMetrics {
  return Object.fromEntries(CALL_METRICS.map((m) => [m, 0])) as CallMetrics;
}

/** A metric's column in the usage tables: identitiesWithEmails is identities_with_emails. */
export const metricColumn = (metric: string) => metric.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The series intervals of the usage reports (issue 16); week starts on Monday (ISO 8601). */
export const USAGE_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type UsageInterval = (typeof USAGE_INTERVALS)[number];

/** What the calls table can be sorted by: the time, or any metric a call has (`requests` is 1 for every call). */
export const USAGE_CALL_SORTS = ['at', ...CALL_METRICS, 'cost'] as const;
export type UsageCallSort = (typeof USAGE_CALL_SORTS)[number];

/** Bounds of a usage report: the points one series may have and the longest range. */
export const USAGE_LIMITS = { maxPoints: 10_000, maxRangeDays: 1_100 } as const;

export const USAGE_MESSAGES = {
  toBeforeFrom: '`to` must be after `from`.',
  rangeTooLong: `The range may span at most ${USAGE_LIMITS.maxRangeDays} days.`,
  tooManyPoints: (points: number) =>
    `That range and interval make ${points.toLocaleString('en-US')} points; at most ${USAGE_LIMITS.maxPoints.toLocaleString('en-US')}: choose a longer interval.`,
  timeZone: (tz: string) => `Unknown time zone "${tz}": use an IANA name such as America/New_York.`,
  cursor: 'This `after` cursor is not one this report gave; start again from the first page.',
  year: 'Please give a time between the years 1970 and 9999.',
  noSuchId: 'There is no such id.',
  outOfScope: {
    userId: 'You may only see usage of users you manage.',
    organizationId: 'You may only see usage of your own organization.',
    keyId: 'You may only see usage of keys you manage.',
  },
} as const;

/** One call as the usage reports list it. */
export interface UsageCall extends CallMetrics {
  id: number;
  at: string;
  userId: number;
  /** The user's name (else e-mail address), when the viewer may see that user; null otherwise (issue 32). */
  userName: string | null;
  organizationId: number | null;
  /** The organization's name, when the viewer may see it; null otherwise. */
  organizationName: string | null;
  keyId: string | null;
  /** The key's name, when the viewer may manage that key; null otherwise (or for a console session). */
  keyName: string | null;
  method: string;
  path: string;
  status: number;
  cost: number;
}

/** Every metric of a range summed, `requests` and `cost` included. */
export type UsageTotals = Record<UsageMetric, number>;

export interface UsagePoint {
  /** The bucket's start, in UTC (ISO 8601); buckets start at the caller's time zone's hour, midnight, Monday or 1st. */
  at: string;
  value: number;
}

/** Readable names of the metrics, for charts, totals and column headers. */
export const METRIC_LABELS: Record<UsageMetric, string> = {
  requests: 'Requests',
  inputs: 'Inputs',
  inputsWithIdentities: 'Inputs with identities',
  identities: 'Identities returned',
  identitiesWithBehaviors: 'Identities with behaviors',
  identitiesWithData: 'Identities with data',
  identitiesWithDevices: 'Identities with devices',
  identitiesWithEmails: 'Identities with emails',
  identitiesWithIps: 'Identities with IPs',
  identitiesWithPhones: 'Identities with phones',
  identitiesWithProperties: 'Identities with properties',
  identitiesWithVehicles: 'Identities with vehicles',
  identitiesWithFinances: 'Identities with finances',
  identitiesWithCompanies: 'Identities with companies',
  behaviors: 'Behaviors',
  devices: 'Devices',
  emails: 'Emails',
  ips: 'IPs',
  phones: 'Phones',
  properties: 'Properties',
  vehicles: 'Vehicles',
  companies: 'Companies',
  bestMatchScores: 'Sum of best match scores',
  milliseconds: 'Milliseconds',
  cost: 'Cost',
};
