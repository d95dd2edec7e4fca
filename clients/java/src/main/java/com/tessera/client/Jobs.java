package com.tessera.client;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Bulk jobs ({@code client.jobs()}, docs/jobs.md): a CSV of any length looked up in the background, every row
 * answered as {@link TesseraClient#upload(Endpoint, Path)} answers it, without a connection held open meanwhile.
 *
 * <pre>{@code
 * Job job = client.jobs().submit(Endpoint.BY_EMAIL, Path.of("customers.csv"), JobOptions.defaults().template(3));
 * Job done = client.jobs().waitFor(job.id());
 * client.jobs().download(done.id(), Path.of("customers-result.csv"));
 * }</pre>
 *
 * <p>Each call uses the client's key, retry policy and timeout. A submission carries an Idempotency-Key (a random one
 * unless {@link JobOptions#idempotencyKey(String)} gives one), the same on every retry: the server answers a repeat
 * with the first job, so a retry after a 429, a 503 or no reply makes no second one. A cancel is retried on 429 and
 * 503 only.
 */
public final class Jobs {
  /** How often {@link #waitFor(String)} reads the job. */
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(2);
  /** How long {@link #waitFor(String)} waits at most. */
  public static final Duration DEFAULT_WAIT = Duration.ofHours(1);

  private static final String PATH = "/v2/jobs";
  private final TesseraClient client;

  Jobs(TesseraClient client) {
    this.client = client;
  }

  // ----------------------------------------------------------------------------------------------------- submit

  /**
   * Starts a job from a CSV file (a header row naming the endpoint's input columns, your own columns passed through)
   * and returns it, queued. The file is read as it is sent, and read again for a retry.
   */
  public Job submit(Endpoint endpoint, Path csv, JobOptions options) {
    return submit(Objects.requireNonNull(endpoint, "endpoint").pathName(), csv, options);
  }

  public Job submit(Endpoint endpoint, Path csv) {
    return submit(endpoint, csv, JobOptions.defaults());
  }

  /**
   * Starts a job from a CSV stream (read as it is sent; not closed). Retried while no more than the builder's {@code
   * uploadRetryBuffer} (default 1 MiB) of it had been sent.
   */
  public Job submit(Endpoint endpoint, InputStream csv, JobOptions options) {
    return submit(Objects.requireNonNull(endpoint, "endpoint").pathName(), csv, options);
  }

  /** Starts a job from CSV text. */
  public Job submit(Endpoint endpoint, String csv, JobOptions options) {
    return submit(Objects.requireNonNull(endpoint, "endpoint").pathName(), csv, options);
  }

  /**
   * Starts a job at an endpoint named as the API names it ({@code byEmail}), such as one newer than this client; an
   * unknown one is an {@link InvalidRequestException} naming it, before any job exists.
   */
  public Job submit(String endpoint, Path csv, JobOptions options) {
    Objects.requireNonNull(csv, "csv");
    if (!Files.isReadable(csv)) throw new IllegalArgumentException("Cannot read " + csv);
    return submit(
        endpoint,
        csvBody(
            () -> {
              try {
                return HttpRequest.BodyPublishers.ofFile(csv);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }),
        options);
  }

  /** Starts a job from a CSV stream at an endpoint named as the API names it. */
  public Job submit(String endpoint, InputStream csv, JobOptions options) {
    Objects.requireNonNull(csv, "csv");
    BufferedInputStream marked = new BufferedInputStream(csv, 64 * 1024);
    marked.mark(client.uploadRetryBuffer());
    InputStream kept = new FilterInputStream(marked) {
          @Override
          public void close() {
            // the caller's stream: theirs to close
          }
        };
    boolean[] first = {true};
    return submit(
        endpoint,
        csvBody(
            () -> {
              if (!first[0]) {
                try {
                  marked.reset();
                } catch (IOException e) {
                  return null; // more than the retry buffer was sent: not retried
                }
              }
              first[0] = false;
              return HttpRequest.BodyPublishers.ofInputStream(() -> kept);
            }),
        options);
  }

  /** Starts a job from CSV text at an endpoint named as the API names it. */
  public Job submit(String endpoint, String csv, JobOptions options) {
    Objects.requireNonNull(csv, "csv");
    byte[] bytes = csv.getBytes(StandardCharsets.UTF_8);
    return submit(endpoint, csvBody(() -> HttpRequest.BodyPublishers.ofByteArray(bytes)), options);
  }

  private interface Publishers {
    HttpRequest.BodyPublisher next();
  }

  private static RequestBody csvBody(Publishers publishers) {
    return new RequestBody() {
      @Override
      public String contentType() {
        return "text/csv; charset=utf-8";
      }

      @Override
      public HttpRequest.BodyPublisher publisher() {
        return publishers.next();
      }
    };
  }

  private Job submit(String endpoint, RequestBody body, JobOptions options) {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(options, "options");
    String key = client.idempotencyKeyOr(options.idempotencyKey());
    TesseraClient.Reply reply =
        client.call("POST", PATH, options.query(endpoint), body, key, options.timeout(), false);
    return job(reply);
  }

  // ------------------------------------------------------------------------------------------ read, list, cancel

  /** The job and its progress ({@code GET /v2/jobs/{id}}); one this key may not see is a {@link NotFoundException}. */
  public Job get(String id) {
    return job(client.call("GET", path(id, ""), Map.of(), null, null, null, false));
  }

  /** The newest page of jobs this key may see (20): its maker's, or with an administrator's key the organization's. */
  public JobPage list() {
    return list(0, null);
  }

  /**
   * A page of jobs, newest first ({@code GET /v2/jobs}): {@code limit} jobs (1 to 100; 0 for the server's 20), older
   * than {@code before} (the {@link JobPage#next()} of the page before; null for the newest).
   */
  public JobPage list(int limit, String before) {
    if (limit < 0 || limit > 100) throw new IllegalArgumentException("limit is 1 to 100 (0: the server's 20).");
    Map<String, String> query = new LinkedHashMap<>();
    if (limit > 0) query.put("limit", Integer.toString(limit));
    if (before != null) query.put("before", before);
    TesseraClient.Reply reply = client.call("GET", PATH, query, null, null, null, false);
    return new JobPage(client.json(reply), reply.info);
  }

  /** Every job this key may see, newest first, read a page ({@code pageSize} jobs, 0: 20) at a time as consumed. */
  public Stream<Job> all(int pageSize) {
    Iterator<Job> jobs =
        new Iterator<>() {
          private JobPage page;
          private int next;

          @Override
          public boolean hasNext() {
            if (page == null) page = list(pageSize, null);
            while (next >= page.jobs().size()) {
              if (page.next() == null) return false;
              page = list(pageSize, page.next());
              next = 0;
            }
            return true;
          }

          @Override
          public Job next() {
            if (!hasNext()) throw new NoSuchElementException();
            return page.jobs().get(next++);
          }
        };
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(jobs, Spliterator.ORDERED | Spliterator.NONNULL), false);
  }

  /**
   * Ends a job that has not ended ({@code POST /v2/jobs/{id}/cancel}): the rows done stay done, billed and
   * downloadable. A job that has ended already is a {@link ConflictException}.
   */
  public Job cancel(String id) {
    return job(client.call("POST", path(id, "/cancel"), Map.of(), null, null, null, false));
  }

  // ------------------------------------------------------------------------------------------------------- wait

  /**
   * Waits for the job to end, reading it every 2 s, for an hour at most; see {@link #waitFor(String, Duration,
   * Duration, Consumer)}.
   */
  public Job waitFor(String id) {
    return waitFor(id, DEFAULT_POLL_INTERVAL, DEFAULT_WAIT, null);
  }

  public Job waitFor(String id, Duration pollInterval, Duration timeout) {
    return waitFor(id, pollInterval, timeout, null);
  }

  /**
   * Reads the job every {@code pollInterval} until it has ended (completed, failed or cancelled) and returns it as it
   * ended; each read is retried on 429 and 503 by the client's retry policy. Past {@code timeout} a {@link
   * TesseraTimeoutException} names the job and how far it got: the job goes on, so wait again or cancel it. {@code
   * onProgress} (or null) sees each read.
   */
  public Job waitFor(String id, Duration pollInterval, Duration timeout, Consumer<Job> onProgress) {
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(timeout, "timeout");
    if (pollInterval.isNegative() || timeout.isNegative()) {
      throw new IllegalArgumentException("pollInterval and timeout must not be negative.");
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    for (; ; ) {
      Job job = get(id);
      if (onProgress != null) onProgress.accept(job);
      if (job.ended()) return job;
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new TesseraTimeoutException(
            "Job "
                + job.id()
                + " has not ended after "
                + describe(timeout)
                + ": it is "
                + job.status().apiName()
                + ", "
                + job.rows().done()
                + " of "
                + job.rows().total()
                + " rows done.",
            null);
      }
      Duration nap = Duration.ofNanos(left);
      client.poll(pollInterval.compareTo(nap) < 0 ? pollInterval : nap);
    }
  }

  // --------------------------------------------------------------------------------------------------- download

  /**
   * The job's result ({@code GET /v2/jobs/{id}/result}), streamed. A job that has not ended is a {@link
   * ConflictException}; one whose result was deleted a {@link GoneException}; each with the server's message.
   */
  public JobResult result(String id) {
    TesseraClient.Reply reply = client.call("GET", path(id, "/result"), Map.of(), null, null, null, true);
    return new JobResult(reply.info, reply.body);
  }

  /**
   * Writes the job's result to a file (replacing it) as it arrives, never the whole of it in memory; returns the bytes
   * written. The errors of {@link #result(String)} are thrown before the file is touched; a download cut short
   * removes the part written, and throws.
   */
  public long download(String id, Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    try (JobResult result = result(id)) {
      return result.saveTo(file);
    }
  }

  private Job job(TesseraClient.Reply reply) {
    Map<String, Object> json = client.json(reply);
    return new Job(JsonFields.object(JsonFields.required(json, "job", "reply"), "reply.job"), reply.info);
  }

  private static String path(String id, String tail) {
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) throw new IllegalArgumentException("A job id is text, such as job_5f0c2d3e9a8b7c6d5e4f3a2b.");
    return PATH + "/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20") + tail;
  }

  private static String describe(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
  }
}
