/** What a reply's headers tell besides its body: the rate limit, the call's cost and allowance; kept beside the reply as `meta`. */
import type { ChargeInfo, RateLimitInfo, ReplyMeta } from './types.js';

const numberHeader = (headers: Headers, name: string): number | undefined => {
  const value = headers.get(name);
  return value === null || value.trim() === '' || Number.isNaN(Number(value)) ? undefined : Number(value);
};

export function rateLimitOf(headers: Headers): RateLimitInfo {
  return {
    limit: numberHeader(headers, 'ratelimit-limit'),
    remaining: numberHeader(headers, 'ratelimit-remaining'),
    reset: numberHeader(headers, 'ratelimit-reset'),
    policy: headers.get('ratelimit-policy') ?? undefined,
  };
}

export function chargeOf(headers: Headers): ChargeInfo {
  return {
    cost: numberHeader(headers, 'x-call-cost'),
    allowanceRemaining: numberHeader(headers, 'x-monthly-allowance-remaining'),
  };
}

/** Adds `meta` to a reply object without making it part of its JSON. */
export function withMeta<T extends object>(value: T, meta: ReplyMeta): T & { readonly meta: ReplyMeta } {
  Object.defineProperty(value, 'meta', { value: meta, enumerable: false });
  return value as T & { readonly meta: ReplyMeta };
}
