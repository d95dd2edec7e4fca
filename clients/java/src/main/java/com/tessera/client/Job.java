package com.tessera.client;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * A bulk job and its progress, as the server answered it ({@code GET /v2/jobs/{id}}, docs/jobs.md): its status, rows
 * done, matched and failed, identities, cost, rate, time left and times. Immutable; {@link #toJson()} gives the
 * server's object as sent.
 */
public final class Job implements JsonWritable {
  /** Where a job is: {@code QUEUED} until a server takes it, {@code RUNNING}, then one of the three that end it. */
  public enum Status {
    UPLOADING,
    QUEUED,
    RUNNING,
    COMPLETED,
    FAILED,
    CANCELLED;

    /** Whether a job in this status has ended (completed, failed or cancelled): its result can be downloaded. */
    public boolean ended() {
      return this == COMPLETED || this == FAILED || this == CANCELLED;
    }

    /** The API's name, e.g. {@code completed}. */
    public String apiName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The job's rows.
   *
   * @param total rows of the CSV, its header not counted
   * @param done rows answered so far (a chunk at a time)
   * @param matched rows that found at least one identity
   * @param failed rows answered with an error (not valid CSV, not a valid input)
   */
  public record Rows(long total, long done, long matched, long failed) {}

  private final Map<String, Object> json;
  private final String id;
  private final Status status;
  private final Rows rows;
  private final ResponseInfo info;

  Job(Map<String, Object> json, ResponseInfo info) {
    this.json = JsonFields.frozenObject(json, "job");
    this.id = JsonFields.string(json, "id", "job");
    String given = JsonFields.string(json, "status", "job");
    Status known = null;
    for (Status s : Status.values()) if (s.apiName().equals(given)) known = s;
    if (known == null) throw JsonFields.wrong("job.status", "a job status, not " + given);
    this.status = known;
    Map<String, Object> r = JsonFields.object(JsonFields.required(json, "rows", "job"), "job.rows");
    this.rows =
        new Rows(
            JsonFields.integer(r, "total", "job.rows"),
            JsonFields.integer(r, "done", "job.rows"),
            JsonFields.integer(r, "matched", "job.rows"),
            JsonFields.integer(r, "failed", "job.rows"));
    this.info = info;
    // Read once now, so that a reply of the wrong shape fails here rather than at a later accessor.
    cost();
    createdAt();
    startedAt();
    finishedAt();
    expiresAt();
    rowsPerSecond();
    etaSeconds();
  }

  /** Its id, {@code job_} and 24 hex digits. */
  public String id() {
    return id;
  }

  public Status status() {
    return status;
  }

  /** Whether it has ended (completed, failed or cancelled). */
  public boolean ended() {
    return status.ended();
  }

  /** The lookup endpoint every row is looked up with, e.g. {@code byEmail}. */
  public String endpoint() {
    return JsonFields.string(json, "endpoint", "job");
  }

  /** The result's format: {@code csv} or {@code jsonl}. */
  public String format() {
    return JsonFields.string(json, "format", "job");
  }

  /** The lookup options it was made with (template, minScore, explain, limit). */
  public Map<String, Object> options() {
    Object options = json.get("options");
    return options == null ? Map.of() : JsonFields.object(options, "job.options");
  }

  public Rows rows() {
    return rows;
  }

  /** Identities returned so far. */
  public long identities() {
    return JsonFields.integer(json, "identities", "job");
  }

  /** What the rows done cost, in dollars. */
  public BigDecimal cost() {
    String cost = JsonFields.string(json, "cost", "job");
    try {
      return new BigDecimal(cost);
    } catch (NumberFormatException e) {
      throw JsonFields.wrong("job.cost", "an amount of dollars");
    }
  }

  /** Rows a second over the time spent looking up; null before its first chunk. */
  public Double rowsPerSecond() {
    Object v = json.get("rowsPerSecond");
    if (v == null) return null;
    if (!(v instanceof Number)) throw JsonFields.wrong("job.rowsPerSecond", "a number or null");
    return ((Number) v).doubleValue();
  }

  /** Seconds left at that rate while it runs; null otherwise. */
  public Long etaSeconds() {
    return JsonFields.nullableInteger(json, "etaSeconds", "job");
  }

  /** Why it failed; null otherwise. */
  public String error() {
    return JsonFields.optionalString(json, "error", "job");
  }

  public Instant createdAt() {
    Instant at = time("createdAt");
    if (at == null) throw JsonFields.wrong("job.createdAt", "a time");
    return at;
  }

  /** When a server first took it; null before. */
  public Instant startedAt() {
    return time("startedAt");
  }

  /** When it ended; null before. */
  public Instant finishedAt() {
    return time("finishedAt");
  }

  /** When its result is deleted (then its download is a {@link GoneException}); null before it ends. */
  public Instant expiresAt() {
    return time("expiresAt");
  }

  /** Where its result is downloaded once it has ended ({@code /v2/jobs/{id}/result}). */
  public String resultUrl() {
    return JsonFields.optionalString(json, "resultUrl", "job");
  }

  /** Status, headers, rate limit and attempts of the reply this job came in; null for a job of a list. */
  public ResponseInfo info() {
    return info;
  }

  private Instant time(String name) {
    String v = JsonFields.optionalString(json, name, "job");
    if (v == null) return null;
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException e) {
      throw JsonFields.wrong("job." + name, "a time (ISO 8601)");
    }
  }

  /** The job as the server sent it. */
  @Override
  public Object toJson() {
    return json;
  }

  @Override
  public String toString() {
    return Json.write(this);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Job && ((Job) o).json.equals(json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }
}
