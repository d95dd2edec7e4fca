/** How much of what may happen, per window; past it the caller gets 429 with Retry-After. */
import { TooManyRequests } from '../../http/errors';
import type { Count, Limiter } from './limiter';
import { CountersAway } from './outage';

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;

export const THROTTLE_RULES = {
  /** Failed sign-ins per account (ASVS: at most 100 an hour). */
  loginFailuresPerAccount: { limit: 100, windowMs: HOUR },
  /** Failed sign-ins per client IP. */
  loginFailuresPerIp: { limit: 300, windowMs: HOUR },
  /** Pre-approval probes reveal whether an account exists: per IP and per domain. */
  preapprovePerIp: { limit: 30, windowMs: 10 * MINUTE },
  preapprovePerDomain: { limit: 100, windowMs: HOUR },
  /** Sign-up and reset requests send mail: per IP and per address. */
  mailPerIp: { limit: 20, windowMs: HOUR },
  mailPerAddress: { limit: 5, windowMs: HOUR },
  /** Outside sign-ins started per IP (each stores an attempt). */
  oauthStartsPerIp: { limit: 30, windowMs: 10 * MINUTE },
  /** Pictures uploaded per user (each is kept until no one uses it). */
  uploadsPerUser: { limit: 20, windowMs: HOUR },
} as const;

export type ThrottleRule = (typeof THROTTLE_RULES)[keyof typeof THROTTLE_RULES];

export const TOO_MANY = 'Too many attempts. Please wait and try again later.';

/**
 * While Redis is away (decision 0050) a count stands for every process, so a limit below one call per process cannot
 * be kept in-process: 503 with Retry-After, for the few seconds until Redis is asked again.
 */
function shareOf(count: Count, rule: ThrottleRule): void {
  if (count.processes && rule.limit < count.processes) throw new CountersAway();
}

/** Counts one attempt under each key and refuses when any is past its limit. */
export async function throttle(limiter: Limiter, checks: [key: string, rule: ThrottleRule][]): Promise<void> {
  for (const [key, rule] of checks) {
    const counted = await limiter.hit(key, rule.windowMs);
    shareOf(counted, rule);
    if (counted.count > rule.limit) throw new TooManyRequests(TOO_MANY, counted.retryAfter);
  }
}

/**
 * Refuses, without counting, when one more attempt under a key would be past its limit (failures are counted
 * separately). One more is one process's worth of count while Redis is away.
 */
export async function refuseWhenOver(limiter: Limiter, checks: [key: string, rule: ThrottleRule][]): Promise<void> {
  for (const [key, rule] of checks) {
    const seen = await limiter.peek(key);
    shareOf(seen, rule);
    if (seen.count + (seen.processes ?? 1) > rule.limit) throw new TooManyRequests(TOO_MANY, seen.retryAfter);
  }
}
