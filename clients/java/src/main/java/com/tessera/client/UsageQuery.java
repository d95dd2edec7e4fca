package com.tessera.client;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a usage report covers ({@code GET /v2/usage/*}): a range (by default the last month), a time zone, and
 * filters within what the key may read (a key its own calls, an administrator's key its organization's).
 */
public final class UsageQuery {
  private final Map<String, String> params = new LinkedHashMap<>();

  /** Everything the key may read over the last month, in UTC. */
  public static UsageQuery defaults() {
    return new UsageQuery();
  }

  private UsageQuery set(String name, Object value) {
    if (value == null) params.remove(name);
    else params.put(name, value.toString());
    return this;
  }

  public UsageQuery from(Instant from) {
    return set("from", from);
  }

  public UsageQuery to(Instant to) {
    return set("to", to);
  }

  /** An IANA time zone buckets and days are counted in (default UTC). */
  public UsageQuery timeZone(String tz) {
    return set("tz", tz);
  }

  /** hour, day (default), week or month: a series' bucket. */
  public UsageQuery interval(String interval) {
    return set("interval", interval);
  }

  /** What a series counts: requests (default), cost, identities, ... */
  public UsageQuery metric(String metric) {
    return set("metric", metric);
  }

  public UsageQuery keyId(String keyId) {
    return set("keyId", keyId);
  }

  public UsageQuery userId(Long userId) {
    return set("userId", userId);
  }

  public UsageQuery organizationId(Long organizationId) {
    return set("organizationId", organizationId);
  }

  /** Calls only: 10, 25, 100 (default), 250 or 1000 a page. */
  public UsageQuery pageSize(Integer pageSize) {
    return set("pageSize", pageSize);
  }

  /** Calls only: the {@code next} cursor of the page before. */
  public UsageQuery after(String cursor) {
    return set("after", cursor);
  }

  Map<String, String> params() {
    return Map.copyOf(params);
  }
}
