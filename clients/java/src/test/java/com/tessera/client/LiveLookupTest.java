package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every lookup, option, batch, upload, key form and error against the really started server. */
class LiveLookupTest {
  static TesseraClient client;
  /** A seeded person with at least one of every exact key (e-mail, phone, IP, device, vehicle). */
  static FullIdentity person;

  @TempDir Path dir;

  @BeforeAll
  static void findAPerson() {
    client = Live.client();
    List<LookupInput> ids = new ArrayList<>();
    for (long id = 1; id <= 80; id++) ids.add(LookupInput.id(id));
    BatchResult batch = client.batch(Endpoint.BY_ID, ids);
    for (BatchResult.Item item : batch.results()) {
      for (FullIdentity p : item.fullIdentities()) {
        if (!p.emails().isEmpty()
            && !p.phones().isEmpty()
            && !p.ips().isEmpty()
            && !p.devices().isEmpty()
            && !p.vehicles().isEmpty()
            && !p.zip().isEmpty()) {
          person = p;
          return;
        }
      }
    }
    throw new AssertionError("no seeded person among ids 1-80 has every kind of key");
  }

  static List<Long> ids(LookupResult r) {
    List<Long> out = new ArrayList<>();
    for (Identity i : r.identities()) out.add(i.id());
    return out;
  }

  static void assertFinds(LookupResult r, String what) {
    assertTrue(ids(r).contains(person.id()), what + " found " + ids(r) + ", not " + person.id());
  }

  @Test
  void readsTheKeysOwnUsageAfterALookup() {
    LookupResult r = client.byEmail(Live.env("TESSERA_EMAIL"));
    String keyId = Live.env("TESSERA_API_KEY").substring(0, ApiKey.ID_LENGTH);
    // The suite's key is root's, which may read everyone's usage: filtered to this key.
    UsageReport calls = client.usageCalls(UsageQuery.defaults().keyId(keyId).pageSize(1000));
    assertEquals(200, calls.info().status());
    assertTrue(calls.calls().stream().allMatch(c -> keyId.equals(c.get("keyId"))), calls.calls().toString());
    assertTrue(calls.calls().size() >= 1, "no calls listed");
    UsageReport totals = client.usageTotals(UsageQuery.defaults().keyId(keyId));
    assertTrue(((Number) totals.totals().get("requests")).longValue() >= 0, totals.totals().toString());
    UsageReport series = client.usageSeries(UsageQuery.defaults().keyId(keyId).interval("day"));
    assertTrue(series.points().size() > 0, "no points");
    InvalidRequestException bad =
        assertThrows(InvalidRequestException.class, () -> client.usageSeries(UsageQuery.defaults().interval("year")));
    assertEquals(400, bad.status());
    assertNotNull(r.requestId());
  }

  @Test
  void findsTheSeededPersonByEmailAsTypedFullRecords() {
    long id = Long.parseLong(Live.env("TESSERA_IDENTITY_ID"));
    LookupResult r = client.byEmail(Live.env("TESSERA_EMAIL"));
    assertEquals(200, r.info().status());
    assertEquals(r.info().requestId(), r.requestId());
    assertTrue(r.requestId().matches("[0-9a-f-]{36}"), r.requestId());
    // The Full reply is over 1 KB, so it comes compressed, and is decoded.
    assertEquals("gzip", r.info().contentEncoding());
    // Root's calls are metered at no contract: what it cost is told, as dollars (issue 31).
    assertEquals(0, java.math.BigDecimal.ZERO.compareTo(r.info().callCost()));
    FullIdentity found =
        r.fullIdentities().stream().filter(p -> p.id() == id).findFirst().orElseThrow(AssertionError::new);
    assertTrue(found.matchedOn().contains("email"));
    assertTrue(found.score() > 0 && found.score() <= 100);
    assertTrue(
        found.emails().stream().anyMatch(e -> e.address().equals(Live.env("TESSERA_EMAIL"))),
        found.emails().toString());
    // The typed record writes back the identity as it came.
    assertEquals(Json.parse(Json.write(r.identities().get(ids(r).indexOf(id)))), Json.parse(Json.write(found)));
  }

  @Test
  void everyLookupFindsThePerson() {
    FullIdentity.Email email = person.emails().get(0);
    assertFinds(client.byEmail("  " + email.address().toUpperCase() + " "), "byEmail");
    assertFinds(client.byPhone(person.phones().get(0).number()), "byPhone");
    assertFinds(client.byIp(person.ips().get(0).ip()), "byIp");
    assertFinds(client.byDevice(person.devices().get(0).deviceId()), "byDevice");
    assertFinds(client.byMd5(email.md5()), "byMd5");
    assertFinds(client.bySha256(email.sha256().toUpperCase()), "bySha256");
    assertFinds(client.byVehicle(person.vehicles().get(0).vin()), "byVehicle");
    assertFinds(client.byId(person.id()), "byId");
    assertFinds(
        client.byPii(
            LookupInput.builder().firstName(person.firstName()).lastName(person.lastName()).zip(person.zip()).build()),
        "byPii");
    assertFinds(
        client.byAny(LookupInput.builder().email(email.address()).phone(person.phones().get(0).number()).build()),
        "byAny");
    assertFinds(client.lookup(Endpoint.BY_ID, LookupInput.id(person.id())), "lookup(BY_ID)");
  }

  @Test
  void appliesTemplateMinScoreExplainAndLimit() {
    String address = person.emails().get(0).address();
    LookupResult compact = client.byEmail(address, LookupOptions.defaults().template(2));
    Identity one = compact.identities().get(0);
    assertEquals(Long.valueOf(person.id()), one.id());
    assertThrows(JsonException.class, one::full, "template 2 is not the Full record");
    assertNull(one.get("vehicles"));

    LookupResult explained = client.byEmail(address, LookupOptions.defaults().explain(true));
    assertNotNull(explained.identities().get(0).explain());
    assertNotNull(explained.fullIdentities().get(0).explain());
    assertNull(client.byEmail(address).identities().get(0).explain());

    double score = client.byEmail(address).identities().get(0).score();
    if (score < 100) {
      LookupOptions above = LookupOptions.defaults().minScore(Math.min(100, score + 0.5));
      assertTrue(client.byEmail(address, above).identities().isEmpty(), "minScore above the score");
    }
    assertFinds(client.byEmail(address, LookupOptions.defaults().minScore(score)), "minScore at the score");

    LookupInput pii =
        LookupInput.builder().firstName(person.firstName()).lastName(person.lastName()).state(person.state()).build();
    assertTrue(client.byPii(pii, LookupOptions.defaults().limit(1).minScore(0)).identities().size() <= 1);
  }

  @Test
  void streamsACsvReply() throws IOException {
    String address = person.emails().get(0).address();
    try (CsvReply csv =
        client.lookupCsv(Endpoint.BY_EMAIL, LookupInput.plain(address), LookupOptions.defaults().template(5))) {
      assertEquals(200, csv.info().status());
      assertTrue(csv.info().headers().first("Content-Type").startsWith("text/csv"));
      CsvReader rows = csv.rows();
      List<String> header = rows.next();
      assertEquals(List.of("input.email", "score", "matchedOn"), header.subList(0, 3));
      List<String> first = rows.next();
      assertEquals(address, first.get(0));
      assertEquals(Long.toString(person.id()), first.get(header.indexOf("id")));
    }
  }

  @Test
  void batchesWithMetadataEchoedPerInput() {
    String address = person.emails().get(0).address();
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("customerId", "c-123");
    meta.put("row", 2);
    meta.put("weight", 0.5);
    meta.put("vip", true);
    meta.put("note", null);
    BatchResult batch =
        client.batch(
            Endpoint.BY_EMAIL,
            List.of(
                LookupInput.plain(address),
                LookupInput.email(address).withMetadata(meta),
                LookupInput.plain("nobody-" + UUID.randomUUID() + "@nowhere.example").withMetadata(Map.of("row", 3))),
            LookupOptions.defaults().template(3));
    assertEquals(batch.info().requestId(), batch.requestId());
    assertEquals(3, batch.results().size());
    BatchResult.Item plain = batch.results().get(0);
    assertEquals(address, plain.input());
    assertNull(plain.metadata());
    assertEquals(Long.valueOf(person.id()), plain.identities().get(0).id());
    BatchResult.Item named = batch.results().get(1);
    assertEquals(Map.of("email", address), named.input());
    Map<String, Object> echoed = new LinkedHashMap<>(meta);
    echoed.put("row", 2L);
    assertEquals(echoed, named.metadata());
    assertEquals(List.of("customerId", "row", "weight", "vip", "note"), new ArrayList<>(named.metadata().keySet()));
    BatchResult.Item nobody = batch.results().get(2);
    assertTrue(nobody.identities().isEmpty());
    assertEquals(Map.of("row", 3L), nobody.metadata());
    assertNotNull(batch.info().idempotencyKey());
    assertFalse(batch.info().replayed());
  }

  @Test
  void batchesAsCsvWithMetadataColumns() throws IOException {
    String address = person.emails().get(0).address();
    try (CsvReply csv =
        client.batchCsv(
            Endpoint.BY_EMAIL,
            List.of(LookupInput.email(address).withMetadata(Map.of("customerId", "c-9"))),
            LookupOptions.defaults().template(3))) {
      CsvReader rows = csv.rows();
      List<String> header = rows.next();
      int column = header.indexOf("metadata.customerId");
      assertTrue(column > 0, header.toString());
      assertEquals("c-9", rows.next().get(column));
    }
  }

  @Test
  void reportsTheServersMessageForABadInput() {
    TesseraException e = assertThrows(TesseraException.class, () -> client.byEmail("not-an-email"));
    assertEquals(400, e.status());
    assertEquals("validation_failed", e.code());
    assertEquals("Invalid input querystring.email: Please provide a valid email address.", e.getMessage());
    assertEquals(
        List.of(new FieldError("querystring.email", "Please provide a valid email address.", null, null)), e.fields());
    assertTrue(e.requestId().matches("[0-9a-f-]{36}"));
    assertEquals(e.requestId(), e.headers().first("X-Request-Id"));

    TesseraException batch =
        assertThrows(
            TesseraException.class,
            () ->
                client.batch(
                    Endpoint.BY_EMAIL,
                    List.of(LookupInput.plain("a@b.example"), LookupInput.plain("nope"))));
    assertEquals(400, batch.status());
    assertEquals("body.inputs.1.email", batch.fields().get(0).path());

    TesseraException big =
        assertThrows(
            TesseraException.class,
            () ->
                client.batch(
                    Endpoint.BY_EMAIL,
                    List.of(LookupInput.plain("a@b.example").withMetadata(Map.of("note", "x".repeat(2000))))));
    assertEquals(400, big.status());
    assertEquals("body.inputs.0.metadata", big.fields().get(0).path());

    TesseraException template =
        assertThrows(
            TesseraException.class,
            () -> client.byEmail("a@b.example", LookupOptions.defaults().template(999_999)));
    assertEquals(400, template.status());
    assertEquals(
        "Template 999999 does not exist, has no published version, or is not shared with you.", template.getMessage());
  }

  @Test
  void reportsAWrongKeyAs401() throws IOException {
    String id = Live.env("TESSERA_API_KEY").substring(0, ApiKey.ID_LENGTH);
    TesseraClient wrong = Live.builder(ApiKey.plain(id + "0".repeat(ApiKey.SECRET_LENGTH))).build();
    TesseraException e = assertThrows(TesseraException.class, () -> wrong.byEmail("a@b.example"));
    assertEquals(401, e.status());
    assertEquals("unauthorized", e.code());
    assertFalse(e.getMessage().isBlank());
    assertNotNull(e.requestId());
    assertEquals("Bearer realm=\"tessera\"", e.headers().first("WWW-Authenticate"));
    Path csv = csvFile("email\na@b.example\n");
    assertEquals(401, assertThrows(TesseraException.class, () -> wrong.upload(Endpoint.BY_EMAIL, csv)).status());
  }

  @Test
  void signsWithHmacSha256() {
    TesseraClient signed = Live.builder(ApiKey.signed(Live.env("TESSERA_API_KEY"))).build();
    assertFinds(signed.byId(person.id()), "signed key");
    // A signature of a time more than 5 minutes off is refused.
    TesseraClient stale =
        Live.builder(ApiKey.signed(Live.env("TESSERA_API_KEY")))
            .clock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-10)))
            .build();
    TesseraException e = assertThrows(TesseraException.class, () -> stale.byId(person.id()));
    assertEquals(401, e.status());
  }

  @Test
  void signsLegacyTokensForLegacyKeysOnly() throws IOException {
    String legacyKey = Live.env("TESSERA_LEGACY_KEY");
    assertFinds(Live.builder(ApiKey.legacy(legacyKey)).build().byId(person.id()), "legacy, decimal time");
    assertFinds(Live.builder(ApiKey.legacy(legacyKey, 36)).build().byId(person.id()), "legacy, base-36 time");
    assertFinds(Live.builder(ApiKey.legacy(legacyKey, 32)).build().byId(person.id()), "legacy, base-32 time");
    try (CsvReply csv =
        Live.builder(ApiKey.legacy(legacyKey)).build().upload(Endpoint.BY_ID, csvFile("id\n" + person.id() + "\n"))) {
      assertEquals(2, csv.lines().count());
    }
    TesseraClient notLegacy = Live.builder(ApiKey.legacy(Live.env("TESSERA_API_KEY"))).build();
    assertEquals(401, assertThrows(TesseraException.class, () -> notLegacy.byId(person.id())).status());
  }

  Path csvFile(String text) throws IOException {
    Path p = Files.createTempFile(dir, "in", ".csv");
    Files.writeString(p, text);
    return p;
  }

  @Test
  void uploadsAFileAndStreamsTheRowsBack() throws IOException {
    String address = person.emails().get(0).address();
    Path csv =
        csvFile(
            "customer,email,note\n"
                + "c-1,"
                + address
                + ",\"has, comma\"\n"
                + "c-2,nobody-"
                + UUID.randomUUID()
                + "@nowhere.example,\n"
                + "c-3,not-an-email,x\n");
    try (CsvReply reply = client.upload(Endpoint.BY_EMAIL, csv)) {
      assertEquals(200, reply.info().status());
      assertEquals("gzip", reply.info().contentEncoding(), "a Full row is over 1 KB: the stream comes compressed");
      assertNotNull(reply.requestId());
      CsvReader rows = reply.rows();
      List<String> header = rows.next();
      assertEquals(List.of("customer", "email", "note", "score", "matchedOn"), header.subList(0, 5));
      assertEquals("error", header.get(header.size() - 1));
      List<List<String>> data = new ArrayList<>();
      rows.forEach(data::add);
      assertEquals(3, data.size(), data.toString());
      assertEquals("c-1", data.get(0).get(0));
      assertEquals("has, comma", data.get(0).get(2));
      assertEquals(Long.toString(person.id()), data.get(0).get(header.indexOf("id")));
      assertEquals("", data.get(1).get(header.indexOf("id")));
      assertEquals(
          "line 4: email: Please provide a valid email address.", data.get(2).get(header.indexOf("error")));
    }
  }

  /**
   * Sends 600 rows, then holds the upload open until the first row of the reply has been read: only a client that
   * sends and reads at the same time gets that row. Then sends 600 more. Uncompressed: the server's gzip stream
   * passes rows on only once about 16 KB of compressed output have built up, and 500 identical rows compress to less.
   */
  @Test
  void readsTheReplyWhileTheUploadIsStillBeingSent() throws Exception {
    String address = person.emails().get(0).address();
    CountDownLatch firstRowRead = new CountDownLatch(1);
    HeldUpload source = new HeldUpload("email\n", address + "\n", 600, 600, firstRowRead);
    long rows = 0;
    boolean finishedBeforeFirstRow;
    TesseraClient plain = Live.builder(ApiKey.plain(Live.env("TESSERA_API_KEY"))).compression(false).build();
    try (CsvReply reply = plain.upload(Endpoint.BY_EMAIL, source, LookupOptions.defaults())) {
      CsvReader reader = reply.rows();
      List<String> header = reader.next();
      List<String> first = reader.next();
      finishedBeforeFirstRow = source.finished;
      firstRowRead.countDown();
      assertEquals(Long.toString(person.id()), first.get(header.indexOf("id")));
      rows = 1;
      while (reader.hasNext()) {
        reader.next();
        rows++;
      }
      assertNull(reply.info().contentEncoding());
    }
    assertFalse(finishedBeforeFirstRow, "the first row came only after the whole upload");
    assertFalse(source.timedOut, "the first row never came while the upload was held open");
    assertEquals(1200, rows);
    assertTrue(source.finished);
  }

  /** Rows of CSV: a header, {@code before} rows, a wait for {@code release}, then {@code after} rows. */
  static final class HeldUpload extends InputStream {
    private final byte[] header;
    private final byte[] row;
    private final int before;
    private final int after;
    private final CountDownLatch release;
    private final AtomicInteger sent = new AtomicInteger();
    private byte[] current;
    private int pos;
    private boolean headerSent;
    volatile boolean finished;
    volatile boolean timedOut;

    HeldUpload(String header, String row, int before, int after, CountDownLatch release) {
      this.header = header.getBytes(StandardCharsets.UTF_8);
      this.row = row.getBytes(StandardCharsets.UTF_8);
      this.before = before;
      this.after = after;
      this.release = release;
    }

    @Override
    public int read() throws IOException {
      byte[] b = new byte[1];
      return read(b, 0, 1) < 0 ? -1 : b[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (current == null || pos >= current.length) {
        if (!headerSent) {
          headerSent = true;
          current = header;
        } else if (sent.get() == before + after) {
          finished = true;
          return -1;
        } else {
          if (sent.get() == before) {
            try {
              if (!release.await(30, TimeUnit.SECONDS)) timedOut = true;
            } catch (InterruptedException e) {
              throw new IOException(e);
            }
          }
          sent.incrementAndGet();
          current = row;
        }
        pos = 0;
      }
      int n = Math.min(len, current.length - pos);
      System.arraycopy(current, pos, b, off, n);
      pos += n;
      return n;
    }
  }

  @Test
  void replaysABatchUnderTheSameIdempotencyKey() {
    String address = person.emails().get(0).address();
    String key = "java-suite-" + UUID.randomUUID();
    LookupOptions options = LookupOptions.defaults().template(3).idempotencyKey(key);
    List<LookupInput> inputs = List.of(LookupInput.email(address).withMetadata(Map.of("n", 1)));
    BatchResult first = client.batch(Endpoint.BY_EMAIL, inputs, options);
    BatchResult again = client.batch(Endpoint.BY_EMAIL, inputs, options);
    assertFalse(first.info().replayed());
    assertTrue(again.info().replayed());
    assertEquals(key, again.info().idempotencyKey());
    assertEquals(first.requestId(), again.requestId());
    assertEquals(Json.write(first), Json.write(again));

    TesseraException other =
        assertThrows(
            TesseraException.class,
            () ->
                client.batch(
                    Endpoint.BY_EMAIL, List.of(LookupInput.email(address).withMetadata(Map.of("n", 2))), options));
    assertEquals(422, other.status());
    assertEquals(
        "This Idempotency-Key was already used with a different request; use a new key for a new request.",
        other.getMessage());

    // Without a key of its own each call gets a new random one: nothing is replayed.
    BatchResult a = client.batch(Endpoint.BY_EMAIL, inputs);
    BatchResult b = client.batch(Endpoint.BY_EMAIL, inputs);
    assertFalse(b.info().replayed());
    assertFalse(a.info().idempotencyKey().equals(b.info().idempotencyKey()));
  }

  @Test
  void replaysAnUploadUnderTheSameIdempotencyKey() throws IOException {
    Path csv = csvFile("email\n" + person.emails().get(0).address() + "\n");
    LookupOptions options = LookupOptions.defaults().template(3).idempotencyKey("java-put-" + UUID.randomUUID());
    Function<CsvReply, String> text =
        r -> {
          try (r) {
            return r.text();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        };
    CsvReply first = client.upload(Endpoint.BY_EMAIL, csv, options);
    assertFalse(first.info().replayed());
    String firstText = text.apply(first);
    CsvReply again = client.upload(Endpoint.BY_EMAIL, csv, options);
    assertTrue(again.info().replayed());
    assertEquals(firstText, text.apply(again));
  }
}
