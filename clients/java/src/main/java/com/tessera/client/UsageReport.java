package com.tessera.client;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A usage report as the server sent it: its range and time zone, and the series' points, the totals, or a page of
 * calls (each a JSON object: {@code at}, {@code keyId}, {@code path}, {@code status}, {@code cost}, the metrics).
 */
public final class UsageReport {
  private final Map<String, Object> report;
  private final ResponseInfo info;

  UsageReport(Map<String, Object> json, String area, ResponseInfo info) {
    this.report = JsonFields.object(JsonFields.required(json, area, "reply"), area);
    this.info = info;
  }

  public String from() {
    return JsonFields.optionalString(report, "from", "report");
  }

  public String to() {
    return JsonFields.optionalString(report, "to", "report");
  }

  public String timeZone() {
    return JsonFields.optionalString(report, "tz", "report");
  }

  /** Totals only: each metric summed over the range ({@code requests}, {@code cost}, ...). */
  @SuppressWarnings("unchecked")
  public Map<String, Object> totals() {
    Object totals = report.get("totals");
    return totals instanceof Map ? Collections.unmodifiableMap((Map<String, Object>) totals) : Map.of();
  }

  /** Calls only: this page's calls, newest first. */
  public List<Map<String, Object>> calls() {
    return objects("calls");
  }

  /** Series only: the points, each {@code at} and {@code value}. */
  public List<Map<String, Object>> points() {
    return objects("points");
  }

  /** Calls only: the cursor of the next page, or null on the last. */
  public String next() {
    return JsonFields.optionalString(report, "next", "report");
  }

  public ResponseInfo info() {
    return info;
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> objects(String name) {
    Object list = report.get(name);
    if (!(list instanceof List)) return List.of();
    return Collections.unmodifiableList((List<Map<String, Object>>) list);
  }
}
