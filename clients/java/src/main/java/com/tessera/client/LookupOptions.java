package com.tessera.client;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Options of a lookup (docs/lookups.md), immutable: each method returns a changed copy.
 *
 * <pre>{@code
 * LookupOptions.defaults().template(2).minScore(80).explain(true).limit(3).purpose("fcra-employment")
 * }</pre>
 *
 * <p>Unset options are not sent, so the server's defaults apply: template 1 (Full), every exact-key match and PII
 * matches from 50, 10 identities per input, no explanation, the key's default permissible purpose. The reply's format
 * is chosen by the method called: JSON for {@code lookup}/{@code batch} (typed results), CSV for {@code
 * lookupCsv}/{@code batchCsv}/{@code upload} (streamed).
 */
public final class LookupOptions {
  private static final LookupOptions DEFAULTS = new LookupOptions(null, null, null, null, null, null, null);

  private final Integer template;
  private final Double minScore;
  private final Boolean explain;
  private final Integer limit;
  private final String purpose;
  private final String idempotencyKey;
  private final Duration timeout;

  private LookupOptions(
      Integer template,
      Double minScore,
      Boolean explain,
      Integer limit,
      String purpose,
      String idempotencyKey,
      Duration timeout) {
    this.template = template;
    this.minScore = minScore;
    this.explain = explain;
    this.limit = limit;
    this.purpose = purpose;
    this.idempotencyKey = idempotencyKey;
    this.timeout = timeout;
  }

  /** No option set: the server's defaults. */
  public static LookupOptions defaults() {
    return DEFAULTS;
  }

  /** The template that shapes each identity (1, Full, by default; 2 to 5 the other system templates). */
  public LookupOptions template(int id) {
    if (id < 1) throw new IllegalArgumentException("template is a template id, 1 or more.");
    return new LookupOptions(id, minScore, explain, limit, purpose, idempotencyKey, timeout);
  }

  /** Only identities scoring at least this, 0 to 100. */
  public LookupOptions minScore(double score) {
    if (!(score >= 0 && score <= 100)) throw new IllegalArgumentException("minScore is 0 to 100.");
    return new LookupOptions(template, score, explain, limit, purpose, idempotencyKey, timeout);
  }

  /** With true, each identity carries {@code explain}: each field's contribution to its score. */
  public LookupOptions explain(boolean on) {
    return new LookupOptions(template, minScore, on, limit, purpose, idempotencyKey, timeout);
  }

  /** Identities per input, 1 to 100 (default 10). */
  public LookupOptions limit(int identities) {
    if (identities < 1 || identities > 100) throw new IllegalArgumentException("limit is 1 to 100.");
    return new LookupOptions(template, minScore, explain, identities, purpose, idempotencyKey, timeout);
  }

  /**
   * The permissible purpose of the lookup (GLBA, DPPA or FCRA), an id such as {@code "fcra-employment"} or {@code
   * "glba-fraud-prevention"} (docs/openapi.json lists them), sent as the {@code purpose} query parameter of every
   * method (GET, POST, PUT) and kept on the server's lookup audit trail. Without it the key's default purpose applies.
   * Under a contract that lists purposes, a lookup naming none or another is a {@link PermissionException} (403)
   * naming the allowed ones; an id the server does not know is an {@link InvalidRequestException} (400).
   *
   * @throws IllegalArgumentException if the id is null or blank
   */
  public LookupOptions purpose(String id) {
    return new LookupOptions(template, minScore, explain, limit, checkedPurpose(id), idempotencyKey, timeout);
  }

  /** The purpose id, if it is not null or blank. */
  static String checkedPurpose(String id) {
    if (id == null || id.isBlank()) throw new IllegalArgumentException("purpose is a permissible purpose id.");
    return id;
  }

  /**
   * The Idempotency-Key of a batch (POST) or upload (PUT): 1 to 255 visible ASCII characters. Without it the client
   * makes a random one per call (unless turned off in the builder); either way the same key is sent on every retry.
   */
  public LookupOptions idempotencyKey(String key) {
    return new LookupOptions(template, minScore, explain, limit, purpose, checkedIdempotencyKey(key), timeout);
  }

  /** The key, if it is 1 to 255 visible ASCII characters. */
  static String checkedIdempotencyKey(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty() || key.length() > 255 || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
      throw new IllegalArgumentException("An Idempotency-Key is 1 to 255 visible ASCII characters.");
    }
    return key;
  }

  /** This call's timeout, instead of the client's. */
  public LookupOptions timeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive.");
    return new LookupOptions(template, minScore, explain, limit, purpose, idempotencyKey, timeout);
  }

  /** The template id, or null for the server's default (1, Full). */
  public Integer template() {
    return template;
  }

  public Double minScore() {
    return minScore;
  }

  public Boolean explain() {
    return explain;
  }

  public Integer limit() {
    return limit;
  }

  /** The permissible purpose id, or null for the key's default. */
  public String purpose() {
    return purpose;
  }

  public String idempotencyKey() {
    return idempotencyKey;
  }

  public Duration timeout() {
    return timeout;
  }

  /** The options as query parameters (GET, PUT), in a fixed order; {@code format} when given. */
  Map<String, String> query(String format) {
    Map<String, String> q = new LinkedHashMap<>();
    if (template != null) q.put("template", template.toString());
    if (minScore != null) q.put("minScore", number(minScore));
    if (explain != null) q.put("explain", explain.toString());
    if (limit != null) q.put("limit", limit.toString());
    if (format != null) q.put("format", format);
    q.putAll(purposeQuery());
    return q;
  }

  /** The query of a batch (POST), whose other options are in its body: the purpose, if set. */
  Map<String, String> purposeQuery() {
    return purpose == null ? Map.of() : Map.of("purpose", purpose);
  }

  /** The options as members of a POST body (the purpose is in its query). */
  Map<String, Object> body(String format) {
    Map<String, Object> b = new LinkedHashMap<>();
    if (template != null) b.put("template", template);
    if (minScore != null) b.put("minScore", minScore);
    if (explain != null) b.put("explain", explain);
    if (limit != null) b.put("limit", limit);
    if (format != null) b.put("format", format);
    return b;
  }

  private static String number(double d) {
    return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }

  @Override
  public String toString() {
    return "LookupOptions" + query(null) + (idempotencyKey == null ? "" : " idempotencyKey=" + idempotencyKey);
  }
}
