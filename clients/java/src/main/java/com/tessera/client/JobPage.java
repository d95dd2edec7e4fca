package com.tessera.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** A page of bulk jobs, newest first ({@code GET /v2/jobs}): pass {@link #next()} as {@code before} for the next. */
public final class JobPage {
  private final List<Job> jobs;
  private final String next;
  private final ResponseInfo info;

  JobPage(Map<String, Object> json, ResponseInfo info) {
    List<Object> list = JsonFields.array(JsonFields.required(json, "jobs", "reply"), "reply.jobs");
    List<Job> out = new ArrayList<>(list.size());
    for (int k = 0; k < list.size(); k++) out.add(new Job(JsonFields.object(list.get(k), "reply.jobs." + k), null));
    this.jobs = Collections.unmodifiableList(out);
    this.next = JsonFields.optionalString(json, "next", "reply");
    this.info = info;
  }

  /** This page's jobs, newest first. */
  public List<Job> jobs() {
    return jobs;
  }

  /** The {@code before} of the next page, or null on the last. */
  public String next() {
    return next;
  }

  public ResponseInfo info() {
    return info;
  }
}
