/**
 * The WEBHOOK_* settings (README, Configuration; decision 0066), read like the seller's (invoices/seller.ts): the
 * values, or the problem with them, which config.ts turns into a ConfigError naming the variable.
 */

export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE: endpoints may be (or resolve to) loopback, link-local and private addresses. */
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_SCHEDULE: the wait before each attempt, in ms; the first is 0 (sent at once). */
  retryScheduleMs: number[];
  /** WEBHOOK_TIMEOUT_MS: the longest an attempt may take, connection to the last byte read. */
  timeoutMs: number;
  /** WEBHOOK_DISABLE_AFTER_FAILURES: an endpoint whose last this many attempts all failed is disabled. */
  disableAfterFailures: number;
  /** WEBHOOK_SECRET_OVERLAP: after a rotation, how long the previous secret still signs deliveries, in ms. */
  secretOverlapMs: number;
  /** WEBHOOK_WORKER: whether this process sends deliveries (every process records them either way). */
  worker: boolean;
  /** WEBHOOK_LOG_RETENTION_DAYS: how long ended deliveries stay in the delivery log. */
  logRetentionDays: number;
}

/** The Standard Webhooks schedule: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: 27.6 h in all. */
export const DEFAULT_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h,10h';
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_DISABLE_AFTER_FAILURES = 50;
export const DEFAULT_SECRET_OVERLAP = '24h';
export const DEFAULT_LOG_RETENTION_DAYS = 30;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** 30 days: no wait (and no overlap) is longer. */
const LONGEST_MS = 30 * UNIT_MS.d!;

/** `0`, or a whole number with a unit: `250ms`, `5s`, `5m`, `2h`, `1d`; null when it is not one. */
export function parseDuration(text: string): number | null {
  const match = /^(\d{1,9})(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return null;
  const amount = Number(match[1]);
  if (!match[2]) return amount === 0 ? 0 : null;
  const ms = amount * UNIT_MS[match[2]]!;
  return ms <= LONGEST_MS ? ms : null;
}

const value = (env: NodeJS.ProcessEnv, name: string) => {
  const v = env[name]?.trim();
  return v ? v : null;
};

const flag = (v: string | null) => v === 'true' || v === '1';

function schedule(text: string): number[] | { problem: string } {
  const problem = {
    problem:
      'WEBHOOK_RETRY_SCHEDULE must be 1 to 20 comma-separated waits (0, or a whole number with ms, s, m, h or d, each at most 30d), starting with 0: e.g. 0,5s,5m,30m,2h,5h,10h,10h.',
  };
  const parts = text.split(',').map(parseDuration);
  if (parts.length > 20 || parts.some((p) => p === null) || parts[0] !== 0) return problem;
  return parts as number[];
}

/** The settings from the environment, or the problem with them. */
export function webhookSettingsFromEnv(env: NodeJS.ProcessEnv): WebhookSettings | { problem: string } {
  const retryScheduleMs = schedule(value(env, 'WEBHOOK_RETRY_SCHEDULE') ?? DEFAULT_RETRY_SCHEDULE);
  if ('problem' in retryScheduleMs) return retryScheduleMs;
  const timeout = value(env, 'WEBHOOK_TIMEOUT_MS');
  if (timeout !== null && !(/^\d{1,6}$/.test(timeout) && Number(timeout) >= 100 && Number(timeout) <= 120_000)) {
    return { problem: 'WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000.' };
  }
  const failures = value(env, 'WEBHOOK_DISABLE_AFTER_FAILURES');
  if (failures !== null && !(/^\d{1,5}$/.test(failures) && Number(failures) >= 1)) {
    return { problem: 'WEBHOOK_DISABLE_AFTER_FAILURES must be a whole number from 1 to 99999.' };
  }
  const overlap = parseDuration(value(env, 'WEBHOOK_SECRET_OVERLAP') ?? DEFAULT_SECRET_OVERLAP);
  if (overlap === null) {
    return {
      problem: 'WEBHOOK_SECRET_OVERLAP must be 0, or a whole number with ms, s, m, h or d, at most 30d: e.g. 24h.',
    };
  }
  const retention = value(env, 'WEBHOOK_LOG_RETENTION_DAYS');
  if (retention !== null && !(/^\d{1,4}$/.test(retention) && Number(retention) >= 1 && Number(retention) <= 3650)) {
    return { problem: 'WEBHOOK_LOG_RETENTION_DAYS must be a whole number of days from 1 to 3650.' };
  }
  const worker = value(env, 'WEBHOOK_WORKER');
  return {
    allowPrivate: flag(value(env, 'WEBHOOK_ALLOW_PRIVATE')),
    retryScheduleMs,
    timeoutMs: timeout === null ? DEFAULT_TIMEOUT_MS : Number(timeout),
    disableAfterFailures: failures === null ? DEFAULT_DISABLE_AFTER_FAILURES : Number(failures),
    secretOverlapMs: overlap,
    worker: worker === null ? true : flag(worker),
    logRetentionDays: retention === null ? DEFAULT_LOG_RETENTION_DAYS : Number(retention),
  };
}
