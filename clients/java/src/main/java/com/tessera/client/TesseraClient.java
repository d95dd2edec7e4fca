package com.tessera.client;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import javax.net.ssl.SSLContext;

/**
 * The Tessera identity API's client: the ten lookups, single (GET), batch (POST, with per-input metadata) and CSV
 * upload (PUT, streamed both ways), with API keys in plain, signed or legacy form, retries on 429 and 503 honouring
 * Retry-After (and of calls that got no reply, where a repeat is safe), Idempotency-Keys, timeouts, a proxy and gzip
 * replies. Thread-safe: make one and share it.
 *
 * <pre>{@code
 * TesseraClient client = TesseraClient.builder()
 *     .baseUrl("https://api.example.com")
 *     .apiKey(ApiKey.signed(System.getenv("TESSERA_API_KEY")))
 *     .build();
 * LookupResult result = client.byEmail("ann@example.com");
 * }</pre>
 *
 * <p>Every failure is a {@link TesseraException} (unchecked) carrying the status, code, message and request id; its
 * subclass says which kind ({@link AuthenticationException}, {@link RateLimitException}, {@link
 * TesseraConnectionException}, ...).
 */
public final class TesseraClient {
  /** The client's version (from pom.xml), or "unknown" when run from classes built without it. */
  public static final String VERSION = readVersion();

  private static final int MAX_ERROR_BODY = 1 << 20;

  private final URI baseUrl;
  private final ApiKey apiKey;
  private final Duration timeout;
  private final Duration connectTimeout;
  private final RetryPolicy retry;
  private final boolean autoIdempotencyKeys;
  private final boolean compression;
  private final int uploadRetryBuffer;
  private final String userAgent;
  private final Clock clock;
  private final Sleeper sleeper;
  private final SSLContext sslContext;
  /** The proxy selector given, or null for the JVM's default (its http(s).proxyHost settings). */
  private final ProxySelector proxy;
  private final HttpClient http;
  private final Jobs jobs = new Jobs(this);
  private final Subscriptions subscriptions = new Subscriptions(this);

  /** Waits between retries; replaced in tests. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  private TesseraClient(Builder b) {
    this.baseUrl = b.baseUrl;
    this.apiKey = b.apiKey;
    this.timeout = b.timeout;
    this.connectTimeout = b.connectTimeout;
    this.retry = b.retry;
    this.autoIdempotencyKeys = b.autoIdempotencyKeys;
    this.compression = b.compression;
    this.uploadRetryBuffer = b.uploadRetryBuffer;
    String java = " Java/" + System.getProperty("java.version");
    this.userAgent = "tessera-java/" + VERSION + java + (b.userAgent == null ? "" : " " + b.userAgent);
    this.clock = b.clock;
    this.sleeper = b.sleeper;
    this.sslContext = b.sslContext;
    this.proxy = b.proxy;
    HttpClient.Builder hb =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(connectTimeout)
            .followRedirects(HttpClient.Redirect.NEVER);
    if (sslContext != null) hb.sslContext(sslContext);
    if (proxy != null) hb.proxy(proxy);
    this.http = hb.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The server's address, as given (without a trailing slash). */
  public URI baseUrl() {
    return baseUrl;
  }

  public RetryPolicy retryPolicy() {
    return retry;
  }

  /** Bulk jobs: a CSV of any length looked up in the background ({@code /v2/jobs}). */
  public Jobs jobs() {
    return jobs;
  }

  /** Change subscriptions, for {@code identity.changed} webhook events ({@code /v2/subscriptions}). */
  public Subscriptions subscriptions() {
    return subscriptions;
  }

  // ----------------------------------------------------------------------------------------- single lookups (GET)

  /** Looks up one person by e-mail address (case and spaces ignored). */
  public LookupResult byEmail(String email) {
    return byEmail(email, LookupOptions.defaults());
  }

  public LookupResult byEmail(String email, LookupOptions options) {
    return lookup(Endpoint.BY_EMAIL, LookupInput.plain(email), options);
  }

  /** Looks up one person by phone number: ten US digits in any punctuation, or + and a country code. */
  public LookupResult byPhone(String phone) {
    return byPhone(phone, LookupOptions.defaults());
  }

  public LookupResult byPhone(String phone, LookupOptions options) {
    return lookup(Endpoint.BY_PHONE, LookupInput.plain(phone), options);
  }

  /** Looks up one person by IPv4 or IPv6 address. */
  public LookupResult byIp(String ip) {
    return byIp(ip, LookupOptions.defaults());
  }

  public LookupResult byIp(String ip, LookupOptions options) {
    return lookup(Endpoint.BY_IP, LookupInput.plain(ip), options);
  }

  /** Looks up one person by advertising id (IDFA or AAID), hyphenated or 32 bare hex digits. */
  public LookupResult byDevice(String device) {
    return byDevice(device, LookupOptions.defaults());
  }

  public LookupResult byDevice(String device, LookupOptions options) {
    return lookup(Endpoint.BY_DEVICE, LookupInput.plain(device), options);
  }

  /** Looks up one person by the MD5 of a normalized e-mail address (32 hex digits). */
  public LookupResult byMd5(String md5) {
    return byMd5(md5, LookupOptions.defaults());
  }

  public LookupResult byMd5(String md5, LookupOptions options) {
    return lookup(Endpoint.BY_MD5, LookupInput.plain(md5), options);
  }

  /** Looks up one person by the SHA-256 of a normalized e-mail address (64 hex digits). */
  public LookupResult bySha256(String sha256) {
    return bySha256(sha256, LookupOptions.defaults());
  }

  public LookupResult bySha256(String sha256, LookupOptions options) {
    return lookup(Endpoint.BY_SHA256, LookupInput.plain(sha256), options);
  }

  /** Looks up one person by vehicle identification number (17 characters, valid check digit). */
  public LookupResult byVehicle(String vin) {
    return byVehicle(vin, LookupOptions.defaults());
  }

  public LookupResult byVehicle(String vin, LookupOptions options) {
    return lookup(Endpoint.BY_VEHICLE, LookupInput.plain(vin), options);
  }

  /** Looks up one person by identity id. */
  public LookupResult byId(long id) {
    return byId(id, LookupOptions.defaults());
  }

  public LookupResult byId(long id, LookupOptions options) {
    return lookup(Endpoint.BY_ID, LookupInput.plain(Long.toString(id)), options);
  }

  /**
   * Looks up one person by name and place: {@code firstName} and {@code lastName}, and an {@code address}, a {@code
   * zip} or a {@code state} (with or without {@code city}).
   */
  public LookupResult byPii(LookupInput input) {
    return byPii(input, LookupOptions.defaults());
  }

  public LookupResult byPii(LookupInput input, LookupOptions options) {
    return lookup(Endpoint.BY_PII, input, options);
  }

  /** Looks up one person by any inputs: every key given is searched, and the name and place when complete. */
  public LookupResult byAny(LookupInput input) {
    return byAny(input, LookupOptions.defaults());
  }

  public LookupResult byAny(LookupInput input, LookupOptions options) {
    return lookup(Endpoint.BY_ANY, input, options);
  }

  /** Looks up one input at {@code endpoint} (GET), the reply as JSON. */
  public LookupResult lookup(Endpoint endpoint, LookupInput input) {
    return lookup(endpoint, input, LookupOptions.defaults());
  }

  /** Looks up one input at {@code endpoint} (GET), the reply as JSON. */
  public LookupResult lookup(Endpoint endpoint, LookupInput input, LookupOptions options) {
    Reply reply = send("GET", getUri(endpoint, input, options, null), null, null, null, options, false);
    return new LookupResult(jsonObject(reply), reply.info);
  }

  /** Looks up one input at {@code endpoint} (GET), the reply as CSV, streamed. */
  public CsvReply lookupCsv(Endpoint endpoint, LookupInput input, LookupOptions options) {
    Reply reply = send("GET", getUri(endpoint, input, options, "csv"), null, null, null, options, true);
    return new CsvReply(reply.info, reply.body);
  }

  // ------------------------------------------------------------------------------------------------------- usage

  /** The key's calls, a page at a time ({@code GET /v2/usage/calls}); an administrator's key reads its organization's. */
  public UsageReport usageCalls(UsageQuery query) {
    return usage("/v2/usage/calls", "usageCalls", query);
  }

  /** Every metric summed over the range ({@code GET /v2/usage/totals}). */
  public UsageReport usageTotals(UsageQuery query) {
    return usage("/v2/usage/totals", "usageTotals", query);
  }

  /** One metric by hour, day, week or month ({@code GET /v2/usage/series}). */
  public UsageReport usageSeries(UsageQuery query) {
    return usage("/v2/usage/series", "usageSeries", query);
  }

  private UsageReport usage(String path, String area, UsageQuery query) {
    Objects.requireNonNull(query, "query");
    Reply reply = send("GET", resolve(path, query.params()), null, null, null, LookupOptions.defaults(), false);
    return new UsageReport(jsonObject(reply), area, reply.info);
  }

  // ---------------------------------------------------------------------------------------------- batches (POST)

  /** Looks up 1 to 1,000 inputs at {@code endpoint} in one call (POST); results in the order of the inputs. */
  public BatchResult batch(Endpoint endpoint, List<LookupInput> inputs) {
    return batch(endpoint, inputs, LookupOptions.defaults());
  }

  /** Looks up 1 to 1,000 inputs at {@code endpoint} in one call (POST); results in the order of the inputs. */
  public BatchResult batch(Endpoint endpoint, List<LookupInput> inputs, LookupOptions options) {
    Reply reply = sendBatch(endpoint, inputs, options, null, false);
    return new BatchResult(jsonObject(reply), reply.info);
  }

  /** A batch (POST) whose reply is CSV, streamed: one row per identity, metadata as {@code metadata.<key>} columns. */
  public CsvReply batchCsv(Endpoint endpoint, List<LookupInput> inputs, LookupOptions options) {
    Reply reply = sendBatch(endpoint, inputs, options, "csv", true);
    return new CsvReply(reply.info, reply.body);
  }

  private Reply sendBatch(
      Endpoint endpoint, List<LookupInput> inputs, LookupOptions options, String format, boolean stream) {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(inputs, "inputs");
    Objects.requireNonNull(options, "options");
    if (inputs.isEmpty()) throw new IllegalArgumentException("A batch needs at least one input.");
    List<Object> json = new ArrayList<>(inputs.size());
    for (LookupInput input : inputs) json.add(Objects.requireNonNull(input, "input").toJson(endpoint));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("inputs", json);
    body.putAll(options.body(format));
    byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
    URI uri = resolve(endpoint.path(), options.purposeQuery());
    return send("POST", uri, bytes, "application/json", idempotencyKey(options), options, stream);
  }

  // ------------------------------------------------------------------------------------------------ uploads (PUT)

  /**
   * Uploads a CSV file (a header row naming input columns, then one input per row; other columns are passed
   * through) and streams back its rows with the identity columns appended. Sent and read at the same time, in
   * constant memory, however large. Retried on 429 and 503 (the file is read again).
   */
  public CsvReply upload(Endpoint endpoint, Path csv, LookupOptions options) {
    Objects.requireNonNull(csv, "csv");
    if (!Files.isReadable(csv)) throw new IllegalArgumentException("Cannot read " + csv);
    return upload(
        endpoint,
        () -> {
          try {
            return Files.newInputStream(csv);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        },
        true,
        options);
  }

  public CsvReply upload(Endpoint endpoint, Path csv) {
    return upload(endpoint, csv, LookupOptions.defaults());
  }

  /**
   * Uploads CSV from a stream (read as the upload goes; not closed) and streams back the reply. Retried on 429 and
   * 503 while no more than the builder's {@code uploadRetryBuffer} (default 1 MiB) of it had been sent.
   */
  public CsvReply upload(Endpoint endpoint, InputStream csv, LookupOptions options) {
    Objects.requireNonNull(csv, "csv");
    BufferedInputStream marked = new BufferedInputStream(csv, 64 * 1024);
    marked.mark(uploadRetryBuffer);
    boolean[] first = {true};
    return upload(
        endpoint,
        () -> {
          if (!first[0]) {
            try {
              marked.reset();
            } catch (IOException e) {
              return null; // more than the retry buffer was sent: not retried
            }
          }
          first[0] = false;
          return marked;
        },
        false,
        options);
  }

  public CsvReply upload(Endpoint endpoint, InputStream csv) {
    return upload(endpoint, csv, LookupOptions.defaults());
  }

  private interface Source {
    /** The body for one attempt, or null when it cannot be sent again. */
    InputStream open();
  }

  private CsvReply upload(Endpoint endpoint, Source source, boolean ownsStreams, LookupOptions options) {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(options, "options");
    URI uri = resolve(endpoint.path(), options.query(null));
    String key = idempotencyKey(options);
    Duration wait = options.timeout() != null ? options.timeout() : timeout;
    InputStream body = source.open();
    for (int attempt = 1; ; attempt++) {
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("Authorization", apiKey.authorization(clock.millis()));
      headers.put("Content-Type", "text/csv; charset=utf-8");
      headers.put("Accept", "text/csv");
      if (compression) headers.put("Accept-Encoding", "gzip, deflate");
      headers.put("User-Agent", userAgent);
      if (key != null) headers.put("Idempotency-Key", key);
      DuplexUpload.Exchange ex;
      try {
        ex = DuplexUpload.put(uri, headers, body, millis(connectTimeout), millis(wait), sslContext, proxyFor(uri));
      } catch (IOException e) {
        closeQuietly(body, ownsStreams);
        TesseraConnectionException failure =
            e instanceof SocketTimeoutException
                ? new TesseraTimeoutException("No reply from " + uri.getHost() + " within " + describe(wait) + ".", e)
                : networkError(uri, e);
        // No reply: sent again only under an Idempotency-Key, and only a body that can be sent again.
        if (key == null || !retry.networkErrors() || attempt > retry.maxRetries()) throw failure;
        body = source.open();
        if (body == null) throw failure;
        try {
          pause(retry.backoff(attempt), failure, attempt);
        } catch (RuntimeException interrupted) {
          closeQuietly(body, ownsStreams);
          throw interrupted;
        }
        continue;
      }
      Headers h = new Headers(ex.headers);
      ResponseInfo info = ResponseInfo.of(ex.status, h, key, attempt);
      if (ex.status >= 200 && ex.status < 300) {
        InputStream decoded;
        try {
          decoded = decode(ex.body, h);
        } catch (IOException e) {
          ex.abort();
          closeQuietly(body, ownsStreams);
          throw networkError(uri, e);
        }
        return new CsvReply(info, ownsStreams ? new ClosingBoth(decoded, body) : decoded);
      }
      TesseraException error;
      try {
        error = errorOf(ex.status, h, readError(decode(ex.body, h)));
      } catch (IOException e) {
        error = TesseraException.fromReply(ex.status, h, null, retryAfter(h));
      }
      ex.abort();
      closeQuietly(body, ownsStreams);
      Duration delay = retryDelay(error, attempt);
      if (delay == null) throw error;
      body = source.open(); // the file again, or the stream from its start
      if (body == null) throw error;
      try {
        pause(delay, error, attempt);
      } catch (RuntimeException e) {
        closeQuietly(body, ownsStreams);
        throw e;
      }
    }
  }

  /** A reply stream that also closes the upload's source (a file the client opened). */
  private static final class ClosingBoth extends java.io.FilterInputStream {
    private final InputStream other;

    ClosingBoth(InputStream in, InputStream other) {
      super(in);
      this.other = other;
    }

    @Override
    public void close() throws IOException {
      try {
        super.close();
      } finally {
        other.close();
      }
    }
  }

  private static void closeQuietly(InputStream in, boolean owned) {
    if (!owned) return;
    try {
      in.close();
    } catch (IOException e) {
      // closing a file we read
    }
  }

  // ------------------------------------------------------------------------------------------------ transport

  /**
   * A call of {@link Jobs} and {@link Subscriptions}: a 429 or 503 (nothing ran) is retried as the policy says; a
   * call that got no reply only when it is a GET or carries an Idempotency-Key ({@code key}, or null).
   */
  Reply call(
      String method,
      String path,
      Map<String, String> query,
      RequestBody body,
      String key,
      Duration wait,
      boolean stream) {
    return send(method, resolve(path, query), body, key, wait != null ? wait : timeout, stream);
  }

  /** The Idempotency-Key to send: the one given, else a random one unless the builder turned them off. */
  String idempotencyKeyOr(String given) {
    if (given != null) return given;
    return autoIdempotencyKeys ? UUID.randomUUID().toString() : null;
  }

  /** How much of an upload stream is kept to send it again on a retry. */
  int uploadRetryBuffer() {
    return uploadRetryBuffer;
  }

  /** A JSON reply, read whole and parsed. */
  Map<String, Object> json(Reply reply) {
    return jsonObject(reply);
  }

  /** Waits between two reads of a job (the sleeper tests replace). */
  void poll(Duration delay) {
    try {
      sleeper.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TesseraException(
          0, TesseraException.INTERRUPTED, "Interrupted while waiting for a job.", null, null, null, null, e);
    }
  }

  /** A successful reply: its info and its (decoded) body. */
  static final class Reply {
    final ResponseInfo info;
    final InputStream body;

    Reply(ResponseInfo info, InputStream body) {
      this.info = info;
      this.body = body;
    }
  }

  private Reply send(
      String method,
      URI uri,
      byte[] body,
      String contentType,
      String idempotencyKey,
      LookupOptions options,
      boolean stream) {
    Duration wait = options.timeout() != null ? options.timeout() : timeout;
    return send(method, uri, body == null ? null : RequestBody.of(contentType, body), idempotencyKey, wait, stream);
  }

  private Reply send(
      String method, URI uri, RequestBody body, String idempotencyKey, Duration wait, boolean stream) {
    TesseraException last = null;
    for (int attempt = 1; ; attempt++) {
      HttpRequest.Builder rb =
          HttpRequest.newBuilder(uri)
              .timeout(wait)
              .header("Authorization", apiKey.authorization(clock.millis()))
              .header("Accept", stream ? "text/csv" : "application/json")
              .header("User-Agent", userAgent);
      if (compression) rb.header("Accept-Encoding", "gzip, deflate");
      if (idempotencyKey != null) rb.header("Idempotency-Key", idempotencyKey);
      if (body != null) {
        HttpRequest.BodyPublisher publisher = body.publisher();
        if (publisher == null) throw last; // a stream that cannot be sent again: the last refusal stands
        rb.header("Content-Type", body.contentType()).method(method, publisher);
      } else {
        rb.method(method, HttpRequest.BodyPublishers.noBody());
      }
      HttpRequest request = rb.build();

      int status;
      Headers headers;
      InputStream in;
      try {
        if (stream) {
          HttpResponse<InputStream> res = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
          status = res.statusCode();
          headers = new Headers(res.headers().map());
          in = res.body();
        } else {
          CompletableFuture<HttpResponse<byte[]>> f =
              http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
          HttpResponse<byte[]> res;
          try {
            res = f.get(wait.toMillis(), TimeUnit.MILLISECONDS);
          } catch (TimeoutException e) {
            f.cancel(true);
            throw new HttpTimeoutException("request timed out");
          } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException) throw (IOException) cause;
            if (cause instanceof RuntimeException) throw (RuntimeException) cause;
            throw new IOException(cause);
          }
          status = res.statusCode();
          headers = new Headers(res.headers().map());
          in = new ByteArrayInputStream(res.body());
        }
      } catch (IOException e) {
        TesseraConnectionException failure;
        if (e instanceof HttpConnectTimeoutException) {
          String within = describe(connectTimeout);
          failure = new TesseraTimeoutException("Could not connect to " + uri.getHost() + " within " + within + ".", e);
        } else if (e instanceof HttpTimeoutException) {
          failure =
              new TesseraTimeoutException("No reply from " + uri.getHost() + " within " + describe(wait) + ".", e);
        } else {
          failure = networkError(uri, e);
        }
        // No reply: the call may have run. Sent again only where a repeat is safe.
        boolean safe = "GET".equals(method) || idempotencyKey != null;
        if (!safe || !retry.networkErrors() || attempt > retry.maxRetries()) throw failure;
        pause(retry.backoff(attempt), failure, attempt);
        last = failure;
        continue;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TesseraException(0, TesseraException.INTERRUPTED, "Interrupted.", null, null, null, null, e);
      }

      ResponseInfo info = ResponseInfo.of(status, headers, idempotencyKey, attempt);
      if (status >= 200 && status < 300) {
        try {
          return new Reply(info, decode(in, headers));
        } catch (IOException e) {
          throw networkError(uri, e);
        }
      }
      TesseraException error;
      try {
        error = errorOf(status, headers, readError(decode(in, headers)));
      } catch (IOException e) {
        error = TesseraException.fromReply(status, headers, null, retryAfter(headers));
      } finally {
        try {
          in.close();
        } catch (IOException e) {
          // released
        }
      }
      Duration delay = retryDelay(error, attempt);
      if (delay == null) throw error;
      pause(delay, error, attempt);
      last = error;
    }
  }

  private TesseraException errorOf(int status, Headers headers, byte[] body) {
    return TesseraException.fromReply(status, headers, body, retryAfter(headers));
  }

  private static byte[] readError(InputStream in) throws IOException {
    try (InputStream body = in) {
      return body.readNBytes(MAX_ERROR_BODY);
    }
  }

  /** How long to wait before retrying after {@code error} on attempt {@code attempt}, or null not to retry. */
  private Duration retryDelay(TesseraException error, int attempt) {
    if (!retry.statuses().contains(error.status()) || attempt > retry.maxRetries()) return null;
    Duration after = error.retryAfter();
    if (after != null) return after.compareTo(retry.maxRetryAfter()) > 0 ? null : after;
    return retry.backoff(attempt);
  }

  private void pause(Duration delay, TesseraException error, int attempt) {
    RetryPolicy.RetryListener listener = retry.listener();
    if (listener != null) {
      listener.onRetry(
          new RetryPolicy.RetryEvent(
              attempt, error.status(), error.requestId(), delay, error.retryAfter() != null, error));
    }
    try {
      sleeper.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TesseraException(
          0, TesseraException.INTERRUPTED, "Interrupted while waiting to retry.", null, null, null, null, error);
    }
  }

  /** The reply's Retry-After: seconds, or an HTTP date; null when absent or unreadable. */
  private Duration retryAfter(Headers headers) {
    String v = headers.first("Retry-After");
    if (v == null || v.isBlank()) return null;
    v = v.trim();
    try {
      double seconds = Double.parseDouble(v);
      if (seconds < 0 || Double.isNaN(seconds) || Double.isInfinite(seconds)) return null;
      return Duration.ofMillis((long) Math.ceil(seconds * 1000));
    } catch (NumberFormatException e) {
      // an HTTP date
    }
    try {
      ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
      long ms = at.toInstant().toEpochMilli() - clock.millis();
      return Duration.ofMillis(Math.max(0, ms));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static InputStream decode(InputStream in, Headers headers) throws IOException {
    String encoding = headers.first("Content-Encoding");
    if (encoding == null) return in;
    switch (encoding.trim().toLowerCase()) {
      case "gzip":
      case "x-gzip":
        return new GZIPInputStream(in, 8192);
      case "deflate":
        return new InflaterInputStream(in);
      case "identity":
      case "":
        return in;
      default:
        in.close();
        throw new IOException("The reply is encoded as " + encoding + ", which this client does not read.");
    }
  }

  private Map<String, Object> jsonObject(Reply reply) {
    byte[] bytes;
    try (InputStream in = reply.body) {
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw networkError(baseUrl, e);
    }
    Object json;
    try {
      json = Json.parse(bytes);
    } catch (JsonException e) {
      throw new TesseraException(
          reply.info.status(),
          "bad_reply",
          "The reply is not valid JSON: " + e.getMessage(),
          reply.info.requestId(),
          null,
          null,
          reply.info.headers(),
          e);
    }
    return JsonFields.object(json, "reply");
  }

  private TesseraConnectionException networkError(URI uri, IOException e) {
    if (e instanceof SocketTimeoutException) {
      return new TesseraTimeoutException("No reply from " + uri.getHost() + " in time: " + e.getMessage(), e);
    }
    String what = e instanceof ConnectException ? "Could not connect to " : "Lost the connection to ";
    String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new TesseraConnectionException(TesseraException.NETWORK, what + uri.getHost() + ": " + detail, e);
  }

  /** The proxy an upload's own socket goes through: the selector's first choice for the URI, else none. */
  private Proxy proxyFor(URI uri) {
    ProxySelector selector = proxy != null ? proxy : ProxySelector.getDefault();
    if (selector == null) return Proxy.NO_PROXY;
    List<Proxy> chosen = selector.select(uri);
    return chosen == null || chosen.isEmpty() ? Proxy.NO_PROXY : chosen.get(0);
  }

  private String idempotencyKey(LookupOptions options) {
    return idempotencyKeyOr(options.idempotencyKey());
  }

  private URI getUri(Endpoint endpoint, LookupInput input, LookupOptions options, String format) {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(options, "options");
    if (input.metadata() != null) {
      throw new IllegalArgumentException("A single lookup (GET) has no metadata: use batch() to send it.");
    }
    Map<String, String> query = new LinkedHashMap<>(input.namedFor(endpoint));
    query.putAll(options.query(format));
    return resolve(endpoint.path(), query);
  }

  private URI resolve(String path, Map<String, String> query) {
    StringBuilder sb = new StringBuilder(baseUrl.toString()).append(path);
    char sep = '?';
    for (Map.Entry<String, String> e : query.entrySet()) {
      sb.append(sep).append(encode(e.getKey())).append('=').append(encode(e.getValue()));
      sep = '&';
    }
    return URI.create(sb.toString());
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static int millis(Duration d) {
    long ms = d.toMillis();
    return ms > Integer.MAX_VALUE ? 0 : (int) Math.max(1, ms);
  }

  private static String describe(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
  }

  private static String readVersion() {
    try (InputStream in = TesseraClient.class.getResourceAsStream("version.properties")) {
      if (in == null) return "unknown";
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "unknown").trim();
      return v.isEmpty() || v.startsWith("${") ? "unknown" : v;
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Configures a {@link TesseraClient}. */
  public static final class Builder {
    private URI baseUrl;
    private ApiKey apiKey;
    private Duration timeout = Duration.ofSeconds(30);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private RetryPolicy retry = RetryPolicy.defaults();
    private boolean autoIdempotencyKeys = true;
    private boolean compression = true;
    private int uploadRetryBuffer = 1 << 20;
    private String userAgent;
    private Clock clock = Clock.systemUTC();
    private Sleeper sleeper = d -> Thread.sleep(d.toMillis());
    private SSLContext sslContext;
    private ProxySelector proxy;

    private Builder() {}

    /** The server's address, e.g. {@code https://api.example.com} (a path prefix is kept). */
    public Builder baseUrl(String url) {
      Objects.requireNonNull(url, "url");
      return baseUrl(URI.create(url.strip()));
    }

    public Builder baseUrl(URI url) {
      Objects.requireNonNull(url, "url");
      String scheme = url.getScheme();
      if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
        throw new IllegalArgumentException("The base URL must start with http:// or https://, not " + url);
      }
      if (url.getHost() == null) throw new IllegalArgumentException("The base URL has no host: " + url);
      if (url.getRawQuery() != null || url.getRawFragment() != null) {
        throw new IllegalArgumentException("The base URL must have no query or fragment: " + url);
      }
      String s = url.toString();
      while (s.endsWith("/")) s = s.substring(0, s.length() - 1);
      this.baseUrl = URI.create(s);
      return this;
    }

    /** The key, sent as it is (plain form). */
    public Builder apiKey(String key) {
      return apiKey(ApiKey.plain(key));
    }

    /** The key and its form: {@link ApiKey#plain}, {@link ApiKey#signed} or {@link ApiKey#legacy}. */
    public Builder apiKey(ApiKey key) {
      this.apiKey = Objects.requireNonNull(key, "key");
      return this;
    }

    /**
     * How long a call waits for its reply (default 30 s): the whole reply for JSON; the reply's head, then each
     * read of the body, for a streamed CSV upload; the reply's head for other CSV replies.
     */
    public Builder timeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive.");
      this.timeout = timeout;
      return this;
    }

    /** How long to wait for a connection (default 10 s). */
    public Builder connectTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive.");
      this.connectTimeout = timeout;
      return this;
    }

    /** When to retry (default: 3 retries on 429 and 503, honouring Retry-After). */
    public Builder retry(RetryPolicy policy) {
      this.retry = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Whether batches and uploads without an Idempotency-Key get a random one (default true). */
    public Builder autoIdempotencyKeys(boolean on) {
      this.autoIdempotencyKeys = on;
      return this;
    }

    /** Whether to ask for gzip or deflate replies (default true); they are decoded as read. */
    public Builder compression(boolean on) {
      this.compression = on;
      return this;
    }

    /** How much of an upload stream is kept to send again on a retry (default 1 MiB). */
    public Builder uploadRetryBuffer(int bytes) {
      if (bytes < 0) throw new IllegalArgumentException("uploadRetryBuffer must not be negative.");
      this.uploadRetryBuffer = bytes;
      return this;
    }

    /** Words added to the User-Agent header (your application's name and version). */
    public Builder userAgent(String product) {
      this.userAgent = product;
      return this;
    }

    /** TLS settings for https (default: the JVM's). */
    public Builder sslContext(SSLContext context) {
      this.sslContext = context;
      return this;
    }

    /**
     * The proxies every call goes through, CSV uploads included (default: the JVM's, {@link ProxySelector#getDefault()},
     * which reads the {@code https.proxyHost}, {@code http.proxyHost} and {@code http.nonProxyHosts} system
     * properties). An https server is reached through a CONNECT tunnel.
     */
    public Builder proxy(ProxySelector selector) {
      this.proxy = Objects.requireNonNull(selector, "selector");
      return this;
    }

    /** One HTTP proxy for every call: {@code proxy("proxy.internal", 3128)}. */
    public Builder proxy(String host, int port) {
      return proxy(ProxySelector.of(new InetSocketAddress(host, port)));
    }

    /** The clock whose time signed and legacy keys sign (default: the system's). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    public TesseraClient build() {
      if (baseUrl == null) throw new IllegalStateException("baseUrl is required.");
      if (apiKey == null) throw new IllegalStateException("apiKey is required.");
      return new TesseraClient(this);
    }
  }
}
