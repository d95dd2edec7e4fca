/**
 * An outside sign-in that cannot go on ends back at /login with a reason the page shows as an alert
 * (common/providers.ts); never with an error page. Callers throw OauthFailure; the route turns it into that redirect.
 */
import type { ProviderFailure, ProviderId } from '@tessera/common/providers';

export class OauthFailure extends Error {
  constructor(
    readonly reason: ProviderFailure,
    /** For 'domain': the e-mail domain nobody accepts (a domain, never an address). */
    readonly domain?: string,
    /** What went wrong underneath, for the log (by name and code only: it may quote the provider's reply). */
    cause?: unknown,
  ) {
    super(`outside sign-in failed: ${reason}`, { cause });
    this.name = 'OauthFailure';
  }
}

export function loginFailureLocation(provider: ProviderId, reason: ProviderFailure, domain?: string): string {
  const query = new URLSearchParams({ failure: reason, provider });
  if (domain) query.set('domain', domain);
  return `/login?${query}`;
}

/** What may be logged about a failure: its reason and the underlying error's name and code, no messages or bodies. */
export function failureLogFields(provider: ProviderId, failure: OauthFailure): Record<string, unknown> {
  const cause = failure.cause as { name?: unknown; code?: unknown; error?: unknown } | undefined;
  return {
    provider,
    reason: failure.reason,
    ...(cause && { cause: { name: cause.name, code: cause.code, error: cause.error } }),
  };
}
