package com.tessera.client;

/**
 * The rate limit state a reply reports (docs/api-keys.md, Rate limits): the tighter of the key's and the
 * organization's limits, in requests a minute.
 *
 * @param limit requests a minute of the tighter limit ({@code RateLimit-Limit}), or null
 * @param remaining requests left in its window ({@code RateLimit-Remaining}), or null
 * @param resetSeconds seconds until it serves again ({@code RateLimit-Reset}; on a 429 equal to Retry-After), or null
 * @param policy the limits that apply ({@code RateLimit-Policy}, e.g. {@code "key";q=100;w=60}), or null
 * @param state the tighter limit's state ({@code RateLimit}, e.g. {@code "key";r=42;t=18}), or null
 */
public record RateLimit(Integer limit, Integer remaining, Integer resetSeconds, String policy, String state) {
  /** The rate limit headers of a reply, or null when it has none (no limit applies). */
  static RateLimit of(Headers headers) {
    String policy = headers.first("RateLimit-Policy");
    String state = headers.first("RateLimit");
    Integer limit = integer(headers.first("RateLimit-Limit"));
    Integer remaining = integer(headers.first("RateLimit-Remaining"));
    Integer reset = integer(headers.first("RateLimit-Reset"));
    if (policy == null && state == null && limit == null && remaining == null && reset == null) return null;
    return new RateLimit(limit, remaining, reset, policy, state);
  }

  private static Integer integer(String value) {
    if (value == null) return null;
    try {
      return Integer.valueOf(value.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
