package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tessera.client.RetryPolicy.RetryEvent;
import com.tessera.client.ScriptedServer.Answer;
import com.tessera.client.ScriptedServer.Seen;
import java.io.ByteArrayInputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retries, idempotency keys, timeouts, compression and error mapping against a scripted server on loopback, where
 * the replies (503, 429 with Retry-After, slow, gzip, not JSON) can be chosen.
 */
class LocalServerTest {
  static final String KEY = ApiKeyTest.ID + ApiKeyTest.SECRET;
  static final String BATCH_REPLY =
      "{\"requestId\":\"r-1\",\"results\":[{\"input\":\"a@b.example\",\"identities\":[]},"
          + "{\"input\":{\"email\":\"c@d.example\"},\"metadata\":{\"customerId\":\"c-1\"},\"identities\":"
          + "[{\"score\":97,\"matchedOn\":[\"email\"],\"id\":7}]}]}";
  static final String ERROR_503 = "{\"error\":\"Try again soon.\",\"code\":\"unavailable\",\"requestId\":\"e-503\"}";

  ScriptedServer server;
  final List<Duration> slept = Collections.synchronizedList(new ArrayList<>());
  final List<RetryEvent> events = Collections.synchronizedList(new ArrayList<>());

  @TempDir Path dir;

  @BeforeEach
  void start() throws Exception {
    server = new ScriptedServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** A client of the scripted server that records its waits instead of sleeping. */
  TesseraClient.Builder client() {
    return TesseraClient.builder()
        .baseUrl(server.url())
        .apiKey(ApiKey.signed(KEY))
        .retry(RetryPolicy.defaults().baseDelay(Duration.ofMillis(40)).listener(events::add))
        .sleeper(slept::add);
  }

  static List<LookupInput> twoInputs() {
    return List.of(
        LookupInput.plain("a@b.example"), LookupInput.email("c@d.example").withMetadata(Map.of("customerId", "c-1")));
  }

  @Test
  void retriesA503ByBackoffThenByRetryAfterKeepingTheIdempotencyKey() {
    server.answer(
        new Answer(503).json(ERROR_503),
        new Answer(503).header("Retry-After", "1").json(ERROR_503),
        new Answer(200).json(BATCH_REPLY));
    // Really waiting here: the retry after Retry-After: 1 comes a second later.
    TesseraClient client =
        TesseraClient.builder()
            .baseUrl(server.url())
            .apiKey(ApiKey.signed(KEY))
            .retry(RetryPolicy.defaults().baseDelay(Duration.ofMillis(100)).listener(events::add))
            .build();
    long t0 = System.nanoTime();
    BatchResult result = client.batch(Endpoint.BY_EMAIL, twoInputs());
    long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

    assertEquals(3, result.info().attempts());
    assertEquals(2, events.size());
    assertEquals(503, events.get(0).status());
    assertFalse(events.get(0).fromRetryAfter());
    assertTrue(events.get(0).delay().toMillis() >= 50 && events.get(0).delay().toMillis() <= 100);
    assertTrue(events.get(1).fromRetryAfter());
    assertEquals(Duration.ofSeconds(1), events.get(1).delay());
    assertEquals("e-503", events.get(1).requestId());
    assertTrue(elapsedMs >= 1050, "waited " + elapsedMs + " ms");

    List<Seen> seen = server.seen();
    assertEquals(3, seen.size());
    String key = seen.get(0).header("Idempotency-Key");
    assertNotNull(key);
    for (Seen s : seen) {
      assertEquals("POST", s.method);
      assertEquals("/v2/identities/byEmail", s.uri);
      assertEquals(key, s.header("Idempotency-Key"));
      assertEquals("application/json", s.header("Content-Type"));
      assertEquals("application/json", s.header("Accept"));
      assertEquals("gzip, deflate", s.header("Accept-Encoding"));
      assertTrue(s.header("User-Agent").startsWith("tessera-java/" + TesseraClient.VERSION + " "));
      assertTrue(s.header("Authorization").matches("Bearer " + ApiKeyTest.ID + "\\d{13}[0-9a-f]{64}"));
      assertEquals(
          "{\"inputs\":[\"a@b.example\",{\"email\":\"c@d.example\",\"metadata\":{\"customerId\":\"c-1\"}}]}", s.text());
    }
    // A new signature for each attempt, as its time moves on.
    assertFalse(seen.get(1).header("Authorization").equals(seen.get(2).header("Authorization")));
    assertEquals(key, result.info().idempotencyKey());
    assertEquals("c-1", result.results().get(1).metadata().get("customerId"));
    assertEquals(Long.valueOf(7), result.results().get(1).identities().get(0).id());
  }

  @Test
  void givesUpAfterMaxRetries() {
    for (int i = 0; i < 4; i++) server.answer(new Answer(503).json(ERROR_503));
    TesseraException e = assertThrows(TesseraException.class, () -> client().build().byEmail("a@b.example"));
    assertEquals(503, e.status());
    assertEquals("unavailable", e.code());
    assertEquals("Try again soon.", e.getMessage());
    assertEquals("e-503", e.requestId());
    assertEquals(4, server.seen().size());
    assertEquals(3, slept.size());
    assertTrue(slept.get(2).compareTo(slept.get(0)) > 0, "the backoff grows: " + slept);
  }

  @Test
  void throwsAtOnceWhenRetryAfterIsTooLong() {
    server.answer(
        new Answer(429)
            .header("Retry-After", "3600")
            .json("{\"error\":\"This API key is limited.\",\"code\":\"rate_limited\",\"requestId\":\"x\"}"));
    TesseraException e = assertThrows(TesseraException.class, () -> client().build().byEmail("a@b.example"));
    assertEquals(429, e.status());
    assertEquals("rate_limited", e.code());
    assertEquals(Duration.ofHours(1), e.retryAfter());
    assertTrue(slept.isEmpty());
    assertEquals(1, server.seen().size());
  }

  @Test
  void readsRetryAfterAsAnHttpDate() {
    Instant now = Instant.parse("2026-01-02T03:04:05Z");
    String inFiveSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(now.plusSeconds(5).atOffset(ZoneOffset.UTC));
    server.answer(
        new Answer(503).header("Retry-After", inFiveSeconds).json(ERROR_503),
        new Answer(200).json("{\"requestId\":\"r\",\"identities\":[]}"));
    LookupResult r = client().clock(Clock.fixed(now, ZoneOffset.UTC)).build().byEmail("a@b.example");
    assertEquals(List.of(Duration.ofSeconds(5)), slept);
    assertEquals(2, r.info().attempts());
    assertTrue(r.identities().isEmpty());
  }

  @Test
  void retriesOnlyTheChosenStatuses() {
    server.answer(new Answer(500).json("{\"error\":\"Boom.\",\"code\":\"internal\",\"requestId\":\"i\"}"));
    TesseraException e = assertThrows(TesseraException.class, () -> client().build().byEmail("a@b.example"));
    assertEquals(500, e.status());
    assertEquals(1, server.seen().size());

    server.answer(new Answer(503).json(ERROR_503));
    TesseraClient none = client().retry(RetryPolicy.none()).build();
    assertEquals(503, assertThrows(TesseraException.class, () -> none.byEmail("a@b.example")).status());
    assertEquals(2, server.seen().size());

    server.answer(new Answer(500).json(ERROR_503), new Answer(200).json("{\"requestId\":\"r\",\"identities\":[]}"));
    TesseraClient on500 = client().retry(RetryPolicy.defaults().statuses(java.util.Set.of(500))).build();
    assertEquals(2, on500.byEmail("a@b.example").info().attempts());
  }

  @Test
  void retriesAnUploadFromAPathWithTheWholeFileAndTheSameKey() throws Exception {
    Path csv = dir.resolve("in.csv");
    Files.writeString(csv, "id,email\n1,a@b.example\n2,c@d.example\n");
    server.answer(
        new Answer(503).header("Retry-After", "1").json(ERROR_503),
        new Answer(200).csv("id,email,score\r\n1,a@b.example,\r\n2,c@d.example,97\r\n"));
    try (CsvReply reply =
        client().build().upload(Endpoint.BY_EMAIL, csv, LookupOptions.defaults().template(3).idempotencyKey("up-1"))) {
      List<List<String>> rows = new ArrayList<>();
      reply.rows().forEach(rows::add);
      assertEquals(List.of("2", "c@d.example", "97"), rows.get(2));
      assertEquals(2, reply.info().attempts());
      assertEquals("up-1", reply.info().idempotencyKey());
    }
    assertEquals(List.of(Duration.ofSeconds(1)), slept);
    List<Seen> seen = server.seen();
    assertEquals(2, seen.size());
    for (Seen s : seen) {
      assertEquals("PUT", s.method);
      assertEquals("/v2/identities/byEmail?template=3", s.uri);
      assertEquals("up-1", s.header("Idempotency-Key"));
      assertEquals("text/csv; charset=utf-8", s.header("Content-Type"));
      assertEquals("text/csv", s.header("Accept"));
      assertEquals("chunked", s.header("Transfer-Encoding"));
      assertEquals("id,email\n1,a@b.example\n2,c@d.example\n", s.text());
    }
  }

  @Test
  void retriesAnUploadFromAStreamFromItsStart() throws Exception {
    byte[] csv = "email\na@b.example\n".getBytes(StandardCharsets.UTF_8);
    server.answer(new Answer(429).header("Retry-After", "2").json(ERROR_503), new Answer(200).csv("email,score\r\n"));
    try (CsvReply reply = client().build().upload(Endpoint.BY_EMAIL, new ByteArrayInputStream(csv))) {
      assertEquals("email,score\r\n", reply.text());
    }
    List<Seen> seen = server.seen();
    assertEquals(2, seen.size());
    assertEquals("email\na@b.example\n", seen.get(1).text());
    assertEquals(seen.get(0).header("Idempotency-Key"), seen.get(1).header("Idempotency-Key"));
  }

  @Test
  void doesNotRetryAStreamPastItsRetryBuffer() {
    byte[] csv = ("email\n" + "a@b.example\n".repeat(10_000)).getBytes(StandardCharsets.UTF_8);
    server.answer(new Answer(503).json(ERROR_503), new Answer(200).csv("email\r\n"));
    TesseraClient client = client().uploadRetryBuffer(1024).build();
    TesseraException e =
        assertThrows(TesseraException.class, () -> client.upload(Endpoint.BY_EMAIL, new ByteArrayInputStream(csv)));
    assertEquals(503, e.status());
    assertEquals(1, server.seen().size());
  }

  @Test
  void stopsAnUploadWhoseStreamFails() {
    java.io.InputStream failing =
        new java.io.InputStream() {
          int sent;

          @Override
          public int read() throws java.io.IOException {
            if (sent++ < 100) return 'a';
            throw new java.io.IOException("disk gone");
          }
        };
    server.answer(new Answer(200).csv("email\r\n"));
    TesseraException e =
        assertThrows(TesseraException.class, () -> client().build().upload(Endpoint.BY_EMAIL, failing));
    assertEquals(TesseraException.NETWORK, e.code());
    assertTrue(e.getMessage().contains("Reading the upload failed: disk gone"), e.getMessage());
  }

  @Test
  void givesAReplysBodyOnce() throws Exception {
    server.answer(new Answer(200).csv("a\r\n"));
    try (CsvReply reply =
        client().build().lookupCsv(Endpoint.BY_EMAIL, LookupInput.plain("a@b.example"), LookupOptions.defaults())) {
      assertEquals("a\r\n", reply.text());
      assertThrows(IllegalStateException.class, reply::rows);
    }
  }

  @Test
  void sendsNoIdempotencyKeyWhenTurnedOffUnlessGiven() {
    server.answer(new Answer(200).json(BATCH_REPLY), new Answer(200).json(BATCH_REPLY));
    TesseraClient client = client().autoIdempotencyKeys(false).build();
    assertNull(client.batch(Endpoint.BY_EMAIL, twoInputs()).info().idempotencyKey());
    client.batch(Endpoint.BY_EMAIL, twoInputs(), LookupOptions.defaults().idempotencyKey("mine"));
    assertNull(server.seen().get(0).header("Idempotency-Key"));
    assertEquals("mine", server.seen().get(1).header("Idempotency-Key"));
  }

  @Test
  void timesOutAJsonCall() {
    server.answer(new Answer(200).delay(3000).json("{\"requestId\":\"r\",\"identities\":[]}"));
    TesseraClient client =
        client().timeout(Duration.ofMillis(300)).retry(RetryPolicy.defaults().networkErrors(false)).build();
    long t0 = System.nanoTime();
    TesseraTimeoutException e = assertThrows(TesseraTimeoutException.class, () -> client.byEmail("a@b.example"));
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(ms >= 250 && ms < 2500, "timed out after " + ms + " ms");
    assertEquals(0, e.status());
    assertEquals(TesseraException.TIMEOUT, e.code());
    assertTrue(e.getMessage().contains("300 ms"), e.getMessage());
    assertTrue(slept.isEmpty(), "with networkErrors(false) a timeout is not retried");
    assertTrue(e instanceof TesseraConnectionException);
  }

  @Test
  void timesOutByTheCallsOwnTimeout() {
    server.answer(new Answer(200).delay(3000).json(BATCH_REPLY));
    TesseraClient client = client().retry(RetryPolicy.defaults().networkErrors(false)).build();
    long t0 = System.nanoTime();
    assertThrows(
        TesseraTimeoutException.class,
        () -> client.batch(Endpoint.BY_EMAIL, twoInputs(), LookupOptions.defaults().timeout(Duration.ofMillis(200))));
    assertTrue((System.nanoTime() - t0) / 1_000_000 < 2500);
  }

  @Test
  void timesOutAnUploadAndAStreamedReply() throws Exception {
    server.answer(new Answer(200).delay(3000).csv("email\r\n"), new Answer(200).delay(3000).csv("email\r\n"));
    TesseraClient client =
        client().timeout(Duration.ofMillis(300)).retry(RetryPolicy.defaults().networkErrors(false)).build();
    long t0 = System.nanoTime();
    assertThrows(
        TesseraTimeoutException.class,
        () -> client.upload(Endpoint.BY_EMAIL, new ByteArrayInputStream("email\nx@y.example\n".getBytes())));
    assertTrue((System.nanoTime() - t0) / 1_000_000 < 2500);
    t0 = System.nanoTime();
    assertThrows(
        TesseraTimeoutException.class,
        () -> client.lookupCsv(Endpoint.BY_EMAIL, LookupInput.plain("x@y.example"), LookupOptions.defaults()));
    assertTrue((System.nanoTime() - t0) / 1_000_000 < 2500);
  }

  @Test
  void retriesABatchThatGotNoReplyInTimeUnderTheSameKey() {
    server.answer(new Answer(200).delay(3000).json(BATCH_REPLY), new Answer(200).json(BATCH_REPLY));
    TesseraClient client = client().timeout(Duration.ofMillis(300)).build();
    BatchResult result = client.batch(Endpoint.BY_EMAIL, twoInputs());
    assertEquals(2, result.info().attempts());
    assertEquals(1, slept.size(), "one backoff");
    assertEquals(0, events.get(0).status());
    assertTrue(events.get(0).error() instanceof TesseraTimeoutException);
    String key = server.seen().get(0).header("Idempotency-Key");
    assertNotNull(key);
    assertEquals(key, server.seen().get(1).header("Idempotency-Key"));
  }

  @Test
  void throwsAnExceptionClassPerKindOfRefusal() {
    Map<Integer, Class<? extends TesseraException>> kinds =
        Map.ofEntries(
            Map.entry(400, InvalidRequestException.class),
            Map.entry(401, AuthenticationException.class),
            Map.entry(402, PaymentRequiredException.class),
            Map.entry(403, PermissionException.class),
            Map.entry(404, NotFoundException.class),
            Map.entry(409, ConflictException.class),
            Map.entry(422, InvalidRequestException.class),
            Map.entry(429, RateLimitException.class),
            Map.entry(500, ServerException.class),
            Map.entry(503, ServerException.class),
            Map.entry(451, TesseraException.class));
    TesseraClient client = client().retry(RetryPolicy.none()).build();
    for (Map.Entry<Integer, Class<? extends TesseraException>> kind : kinds.entrySet()) {
      server.answer(new Answer(kind.getKey()).json("{\"error\":\"no\",\"code\":\"x\",\"requestId\":\"r\"}"));
      TesseraException e = assertThrows(TesseraException.class, () -> client.byEmail("a@b.example"));
      assertEquals(kind.getValue(), e.getClass(), "status " + kind.getKey());
      assertEquals((int) kind.getKey(), e.status());
    }
  }

  @Test
  void decodesGzipAndDeflateReplies() throws Exception {
    String reply = "{\"requestId\":\"r\",\"identities\":[{\"score\":97,\"matchedOn\":[\"email\"],\"id\":7}]}";
    server.answer(
        new Answer(200).json(reply).encoded("gzip"),
        new Answer(200).json(reply).encoded("deflate"),
        new Answer(200).csv("a,b\r\n1,2\r\n").encoded("gzip"));
    TesseraClient client = client().build();
    LookupResult gz = client.byEmail("a@b.example");
    assertEquals("gzip", gz.info().contentEncoding());
    assertEquals(Long.valueOf(7), gz.identities().get(0).id());
    assertEquals(Long.valueOf(7), client.byEmail("a@b.example").identities().get(0).id());
    LookupInput input = LookupInput.plain("a@b.example");
    try (CsvReply csv = client.lookupCsv(Endpoint.BY_EMAIL, input, LookupOptions.defaults())) {
      assertEquals(List.of("a,b", "1,2"), csv.lines().toList());
    }
    server.answer(new Answer(200).json(reply));
    client().compression(false).build().byEmail("a@b.example");
    assertNull(server.seen().get(3).header("Accept-Encoding"));
  }

  @Test
  void mapsErrorsThatAreNotTheApisJson() {
    server.answer(
        new Answer(502).text("upstream is down"),
        new Answer(403),
        new Answer(418),
        new Answer(400)
            .header("X-Request-Id", "hdr-id")
            .json(
                "{\"error\":\"Invalid input body.inputs.1.email: Please provide a valid email address.\","
                    + "\"code\":\"validation_failed\",\"fields\":[{\"path\":\"body.inputs.1.email\","
                    + "\"message\":\"Please provide a valid email address.\"},{\"path\":\"t\",\"message\":\"m\","
                    + "\"line\":2,\"column\":5}]}"));
    TesseraClient client = client().build();
    TesseraException plain = assertThrows(TesseraException.class, () -> client.byEmail("a@b.example"));
    assertEquals(502, plain.status());
    assertEquals("upstream is down", plain.getMessage());
    assertEquals("http_502", plain.code());
    TesseraException empty = assertThrows(TesseraException.class, () -> client.byEmail("a@b.example"));
    assertEquals("Forbidden", empty.getMessage());
    assertEquals("forbidden", empty.code());
    assertEquals("HTTP 418", assertThrows(TesseraException.class, () -> client.byEmail("a@b.example")).getMessage());
    TesseraException bad = assertThrows(TesseraException.class, () -> client.byEmail("a@b.example"));
    assertEquals("validation_failed", bad.code());
    assertEquals("hdr-id", bad.requestId());
    FieldError email = new FieldError("body.inputs.1.email", "Please provide a valid email address.", null, null);
    assertEquals(email, bad.fields().get(0));
    assertEquals(new FieldError("t", "m", 2, 5), bad.fields().get(1));
    assertTrue(bad.toString().contains("400 validation_failed: Invalid input"), bad.toString());
  }

  @Test
  void reportsAServerThatCannotBeReached() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    TesseraClient client = TesseraClient.builder().baseUrl("http://127.0.0.1:" + port).apiKey(KEY).build();
    TesseraException e = assertThrows(TesseraException.class, () -> client.byEmail("a@b.example"));
    assertEquals(TesseraException.NETWORK, e.code());
    assertEquals(0, e.status());
    TesseraException up =
        assertThrows(
            TesseraException.class,
            () -> client.upload(Endpoint.BY_EMAIL, new ByteArrayInputStream("email\n".getBytes())));
    assertEquals(TesseraException.NETWORK, up.code());
  }

  @Test
  void sendsInputsAndOptionsInTheQuery() throws Exception {
    for (int i = 0; i < 4; i++) server.answer(new Answer(200).json("{\"requestId\":\"r\",\"identities\":[]}"));
    server.answer(new Answer(200).csv("input.email\r\n"));
    TesseraClient client =
        TesseraClient.builder().baseUrl(server.url() + "/prefix/").apiKey(ApiKey.legacy(KEY, 36)).build();
    LookupOptions options = LookupOptions.defaults().template(2).minScore(80).explain(true).limit(3);
    client.byId(7, options);
    client.byAny(
        LookupInput.builder().phone("+1 (415) 555-0123").firstName("Zoë").lastName("O'Neil").state("CA").build());
    client.byPii(LookupInput.pii("Ann", "Lee").with("zip", "62701"));
    client.bySha256("AB");
    client.lookupCsv(Endpoint.BY_MD5, LookupInput.plain("cd"), LookupOptions.defaults().minScore(50.5)).close();
    List<Seen> seen = server.seen();
    assertEquals("/prefix/v2/identities/byId?id=7&template=2&minScore=80&explain=true&limit=3", seen.get(0).uri);
    assertEquals(
        "/prefix/v2/identities/byAny?phone=%2B1%20%28415%29%20555-0123&firstName=Zo%C3%AB&lastName=O%27Neil&state=CA",
        seen.get(1).uri);
    assertEquals("/prefix/v2/identities/byPii?firstName=Ann&lastName=Lee&zip=62701", seen.get(2).uri);
    assertEquals("/prefix/v2/identities/bySha256?sha256=AB", seen.get(3).uri);
    assertEquals("/prefix/v2/identities/byMd5?md5=cd&minScore=50.5&format=csv", seen.get(4).uri);
    assertEquals("text/csv", seen.get(4).header("Accept"));
    assertEquals("GET", seen.get(0).method);
    assertNull(seen.get(0).header("Idempotency-Key"));
    assertTrue(seen.get(0).header("Authorization").matches("Bearer " + ApiKeyTest.ID + "[0-9a-z]{8}[0-9a-f]{32}"));
    assertThrows(
        IllegalArgumentException.class,
        () -> client.lookup(Endpoint.BY_EMAIL, LookupInput.email("a@b.example").withMetadata(Map.of("k", 1))));
  }

  @Test
  void sendsOptionsInTheBatchBody() {
    server.answer(new Answer(200).json(BATCH_REPLY), new Answer(200).csv("input.email,metadata.customerId\r\n"));
    TesseraClient client = client().build();
    LookupOptions options = LookupOptions.defaults().template(4).minScore(90).explain(false).limit(2);
    client.batch(Endpoint.BY_EMAIL, twoInputs(), options);
    try (CsvReply csv = client.batchCsv(Endpoint.BY_EMAIL, twoInputs(), LookupOptions.defaults())) {
      assertEquals(List.of("input.email", "metadata.customerId"), csv.rows().next());
    }
    List<Seen> seen = server.seen();
    assertTrue(
        seen.get(0).text().endsWith(",\"template\":4,\"minScore\":90,\"explain\":false,\"limit\":2}"),
        seen.get(0).text());
    assertTrue(seen.get(1).text().endsWith("],\"format\":\"csv\"}"), seen.get(1).text());
    assertThrows(IllegalArgumentException.class, () -> client.batch(Endpoint.BY_EMAIL, List.of()));
    assertThrows(
        IllegalArgumentException.class, () -> client.batch(Endpoint.BY_PII, List.of(LookupInput.plain("Ann Lee"))));
  }

  @Test
  void refusesAReplyThatIsNotJson() {
    server.answer(new Answer(200).text("<html>hello</html>"));
    TesseraException e = assertThrows(TesseraException.class, () -> client().build().byEmail("a@b.example"));
    assertEquals("bad_reply", e.code());
    assertEquals(200, e.status());
  }

  @Test
  void checksItsSettings() {
    assertThrows(IllegalArgumentException.class, () -> TesseraClient.builder().baseUrl("ftp://x"));
    assertThrows(IllegalArgumentException.class, () -> TesseraClient.builder().baseUrl("http://x/?q=1"));
    assertThrows(IllegalStateException.class, () -> TesseraClient.builder().apiKey(KEY).build());
    assertThrows(IllegalStateException.class, () -> TesseraClient.builder().baseUrl("http://x").build());
    TesseraClient prefixed = TesseraClient.builder().baseUrl("http://x/api//").apiKey(KEY).build();
    assertEquals("http://x/api", prefixed.baseUrl().toString());
  }

  @Test
  void knowsItsVersionFromThePom() throws Exception {
    String pom = Files.readString(Path.of("pom.xml"));
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^  <version>(.+)</version>$").matcher(pom);
    assertTrue(m.find());
    assertEquals(m.group(1), TesseraClient.VERSION);
    assertTrue(Files.readString(Path.of("CHANGELOG.md")).contains("## " + TesseraClient.VERSION), "CHANGELOG names it");
    // The README's install lines name the same version.
    String readme = Files.readString(Path.of("README.md"));
    java.util.regex.Matcher named =
        java.util.regex.Pattern.compile(
                "tessera-client-(\\d[^ -]*?)(?:-sources|-javadoc)?\\.(?:jar|pom)|<version>([^<]+)</version>"
                    + "|tessera-client:([0-9][^`\\s]*)")
            .matcher(readme);
    int seen = 0;
    while (named.find()) {
      String v = named.group(1) != null ? named.group(1) : named.group(2) != null ? named.group(2) : named.group(3);
      assertEquals(TesseraClient.VERSION, v, named.group());
      seen++;
    }
    assertTrue(seen >= 3, "the README names the version " + seen + " times");
  }
}
