package com.tessera.client;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Options of a bulk job, immutable: each method returns a changed copy.
 *
 * <pre>{@code
 * JobOptions.defaults().template(3).limit(1).format(JobOptions.Format.JSONL).purpose("fcra-employment")
 * }</pre>
 *
 * <p>Unset options are not sent, so the server's defaults apply: a CSV result (what an upload answers), template 1
 * (Full), every exact-key match and PII matches from 50, 10 identities a row, no explanation, the key's default
 * permissible purpose.
 */
public final class JobOptions {
  /** The result's format: the CSV an upload answers, or one JSON object a row. */
  public enum Format {
    CSV,
    JSONL;

    String apiName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private static final JobOptions DEFAULTS = new JobOptions(null, null, null, null, null, null, null, null);

  private final Format format;
  private final Integer template;
  private final Double minScore;
  private final Integer limit;
  private final Boolean explain;
  private final String purpose;
  private final String idempotencyKey;
  private final Duration timeout;

  private JobOptions(
      Format format,
      Integer template,
      Double minScore,
      Integer limit,
      Boolean explain,
      String purpose,
      String idempotencyKey,
      Duration timeout) {
    this.format = format;
    this.template = template;
    this.minScore = minScore;
    this.limit = limit;
    this.explain = explain;
    this.purpose = purpose;
    this.idempotencyKey = idempotencyKey;
    this.timeout = timeout;
  }

  /** No option set: the server's defaults. */
  public static JobOptions defaults() {
    return DEFAULTS;
  }

  /** The result's format (CSV by default). */
  public JobOptions format(Format format) {
    return new JobOptions(
        Objects.requireNonNull(format, "format"),
        template,
        minScore,
        limit,
        explain,
        purpose,
        idempotencyKey,
        timeout);
  }

  /** The template that shapes each identity (1, Full, by default). */
  public JobOptions template(int id) {
    if (id < 1) throw new IllegalArgumentException("template is a template id, 1 or more.");
    return new JobOptions(format, id, minScore, limit, explain, purpose, idempotencyKey, timeout);
  }

  /** Only identities scoring at least this, 0 to 100. */
  public JobOptions minScore(double score) {
    if (!(score >= 0 && score <= 100)) throw new IllegalArgumentException("minScore is 0 to 100.");
    return new JobOptions(format, template, score, limit, explain, purpose, idempotencyKey, timeout);
  }

  /** Identities a row, 1 to 100 (default 10). */
  public JobOptions limit(int identities) {
    if (identities < 1 || identities > 100) throw new IllegalArgumentException("limit is 1 to 100.");
    return new JobOptions(format, template, minScore, identities, explain, purpose, idempotencyKey, timeout);
  }

  /** With true, each identity carries its explanation. */
  public JobOptions explain(boolean on) {
    return new JobOptions(format, template, minScore, limit, on, purpose, idempotencyKey, timeout);
  }

  /**
   * The permissible purpose of the job's lookups (GLBA, DPPA or FCRA), an id such as {@code "fcra-employment"}
   * (docs/openapi.json lists them), sent as the {@code purpose} query parameter of {@code POST /v2/jobs} and kept on
   * the server's lookup audit trail. Without it the key's default purpose applies. Under a contract that lists
   * purposes, a job naming none or another is a {@link PermissionException} (403) before any job exists.
   *
   * @throws IllegalArgumentException if the id is null or blank
   */
  public JobOptions purpose(String id) {
    String checked = LookupOptions.checkedPurpose(id);
    return new JobOptions(format, template, minScore, limit, explain, checked, idempotencyKey, timeout);
  }

  /**
   * The submission's Idempotency-Key: 1 to 255 visible ASCII characters. Without it the client makes a random one
   * (unless turned off in the builder); either way the same key is sent on every retry, and the server answers a
   * repeat with the first job, making no second one.
   */
  public JobOptions idempotencyKey(String key) {
    String checked = LookupOptions.checkedIdempotencyKey(key);
    return new JobOptions(format, template, minScore, limit, explain, purpose, checked, timeout);
  }

  /**
   * How long the submission may take, instead of the client's timeout: the server answers once it has stored the
   * whole CSV, so give a large file more.
   */
  public JobOptions timeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive.");
    return new JobOptions(format, template, minScore, limit, explain, purpose, idempotencyKey, timeout);
  }

  public Format format() {
    return format;
  }

  public Integer template() {
    return template;
  }

  public Double minScore() {
    return minScore;
  }

  public Integer limit() {
    return limit;
  }

  public Boolean explain() {
    return explain;
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

  /** The query of {@code POST /v2/jobs}: the endpoint, then the options set, in a fixed order. */
  Map<String, String> query(String endpoint) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("endpoint", endpoint);
    if (format != null) q.put("format", format.apiName());
    if (template != null) q.put("template", template.toString());
    if (minScore != null) q.put("minScore", BigDecimal.valueOf(minScore).stripTrailingZeros().toPlainString());
    if (limit != null) q.put("limit", limit.toString());
    if (explain != null) q.put("explain", explain.toString());
    if (purpose != null) q.put("purpose", purpose);
    return q;
  }

  @Override
  public String toString() {
    Map<String, String> q = query("");
    q.remove("endpoint");
    return "JobOptions"
        + q
        + (idempotencyKey == null ? "" : " idempotencyKey=" + idempotencyKey)
        + (timeout == null ? "" : " timeout=" + timeout);
  }
}
