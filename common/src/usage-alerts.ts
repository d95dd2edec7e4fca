/**
 * Usage alerts (issue 16, decision 0029): an organization's administrators are told, on the console and by mail,
 * when the month's spend reaches chosen shares of the contract's monthly limit, and when a day's requests exceed a
 * multiple of the trailing 7-day average. The limits, defaults, messages and alert texts live here once; the
 * server's schemas and the organization page's form both use them.
 */
import type { Alert } from './alerts';
import { formatDay, formatMonth } from './dates';
import { formatMoney } from './money';

export const USAGE_ALERT_LIMITS = {
  /** Shares of the monthly limit, in whole percent. */
  shareMin: 1,
  shareMax: 100,
  maxThresholds: 5,
  multipleMin: 1.5,
  multipleMax: 100,
} as const;

export const USAGE_ALERT_DEFAULTS = {
  thresholdsOn: true,
  thresholds: [80, 100] as number[],
  spikeOn: true,
  spikeMultiple: 3,
};

/**
 * The spike rule needs a history: the organization's first day of calls at least this many days before today, and
 * a trailing average (over this many days) of at least SPIKE_MIN_AVERAGE requests a day.
 */
export const SPIKE_WINDOW_DAYS = 7;
export const SPIKE_MIN_AVERAGE = 10;
/** Firings listed with the settings, newest first. */
export const RECENT_FIRINGS = 20;

export const USAGE_ALERT_MESSAGES = {
  thresholds: `Please provide 1 to ${USAGE_ALERT_LIMITS.maxThresholds} whole percentages from ${USAGE_ALERT_LIMITS.shareMin} to ${USAGE_ALERT_LIMITS.shareMax}, separated by commas.`,
  thresholdsRepeated: 'Please give each percentage once.',
  multiple: `Please provide a multiple from ${USAGE_ALERT_LIMITS.multipleMin} to ${USAGE_ALERT_LIMITS.multipleMax} with at most two decimals.`,
} as const;

export interface UsageAlertSettings {
  thresholdsOn: boolean;
  /** Whole percentages of the monthly limit, ascending. */
  thresholds: number[];
  spikeOn: boolean;
  spikeMultiple: number;
}

export type UsageAlertKind = 'threshold' | 'spike';

/** One alert that fired: at most one per organization, kind (with its share) and period. */
export interface UsageAlertFiring {
  id: number;
  organizationId: number;
  kind: UsageAlertKind;
  /** The share of the monthly limit reached (threshold); 0 for a spike. */
  share: number;
  /** The calendar month (YYYY-MM, UTC) of a threshold, the day (YYYY-MM-DD, UTC) of a spike. */
  period: string;
  firedAt: string;
  /** Dollars spent this month and the monthly limit (threshold). */
  spent: number | null;
  monthlyLimit: number | null;
  /** The day's requests, the trailing daily average and the multiple in force (spike). */
  requests: number | null;
  average: number | null;
  multiple: number | null;
}

/** What GET and PUT /v2/organizations/{id}/usage-alerts answer, as the `usageAlerts` data area. */
export interface UsageAlerts extends UsageAlertSettings {
  organizationId: number;
  /** When the settings were last saved; null while the defaults apply. */
  updatedAt: string | null;
  firings: UsageAlertFiring[];
}

export const isShare = (n: number) =>
  Number.isInteger(n) && n >= USAGE_ALERT_LIMITS.shareMin && n <= USAGE_ALERT_LIMITS.shareMax;

/** A multiple in range with at most two decimals. */
export const isMultiple = (n: number) =>
  Number.isFinite(n) &&
  n >= USAGE_ALERT_LIMITS.multipleMin &&
  n <= USAGE_ALERT_LIMITS.multipleMax &&
  Math.abs(Math.round(n * 100) - n * 100) < 1e-9;

/** Why a list of shares is refused, or null when it is fine. */
export function thresholdsProblem(shares: readonly number[]): string | null {
  if (shares.length < 1 || shares.length > USAGE_ALERT_LIMITS.maxThresholds || !shares.every(isShare)) {
    return USAGE_ALERT_MESSAGES.thresholds;
  }
  return new Set(shares).size === shares.length ? null : USAGE_ALERT_MESSAGES.thresholdsRepeated;
}

/** '80, 100' as typed in the console: the shares, or the message saying what is wrong. */
export function parseThresholds(text: string): number[] | { message: string } {
  const parts = text
    .split(/[\s,;%]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (!parts.every((p) => /^\d{1,3}$/.test(p))) return { message: USAGE_ALERT_MESSAGES.thresholds };
  const shares = parts.map(Number);
  const problem = thresholdsProblem(shares);
  return problem ? { message: problem } : [...shares].sort((a, b) => a - b);
}

/** The one money format (money.ts): a test contract's $0.005 is not '$0.01'. */
const dollars = formatMoney;
const count = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** The alert a firing shows in the console's alert stack (deduplicated by title), and says in its e-mail. */
export function usageAlertOf(firing: UsageAlertFiring, organizationName: string): Alert {
  if (firing.kind === 'threshold') {
    const reached = firing.share >= 100;
    return {
      type: reached ? 'error' : 'warning',
      title: `Usage alert: ${firing.share}% of the monthly limit`,
      text:
        `${organizationName} has spent ${dollars(firing.spent ?? 0)} of its ${dollars(firing.monthlyLimit ?? 0)} ` +
        `monthly limit in ${formatMonth(firing.period)}.` +
        (reached ? ' Lookups are refused until the month ends or the limit is raised.' : ''),
    };
  }
  return {
    type: 'warning',
    title: 'Usage alert: unusual number of requests today',
    text:
      `${organizationName} has made ${count(firing.requests ?? 0)} requests on ${formatDay(firing.period)} (UTC), more than ` +
      `${count(firing.multiple ?? 0)} times its daily average of ${count(firing.average ?? 0)} over the previous ${SPIKE_WINDOW_DAYS} days.`,
  };
}
