package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InputsAndOptionsTest {
  @Test
  void endpointsKnowTheirInputs() {
    assertEquals(10, Endpoint.values().length);
    assertEquals("/v2/identities/byEmail", Endpoint.BY_EMAIL.path());
    assertEquals("email", Endpoint.BY_EMAIL.plainKey());
    assertEquals("vin", Endpoint.BY_VEHICLE.plainKey());
    assertNull(Endpoint.BY_PII.plainKey());
    assertEquals(List.of("firstName", "lastName", "address", "city", "state", "zip"), Endpoint.BY_PII.inputs());
    assertEquals(14, Endpoint.BY_ANY.inputs().size());
    assertEquals(Endpoint.BY_SHA256, Endpoint.of("bySha256"));
    assertThrows(IllegalArgumentException.class, () -> Endpoint.of("byName"));
  }

  @Test
  void writesInputsAsABatchSendsThem() {
    assertEquals("a@b.example", LookupInput.plain("a@b.example").toJson());
    assertEquals(Map.of("email", "a@b.example"), LookupInput.email("a@b.example").toJson());
    assertEquals(Map.of("id", "7"), LookupInput.id(7).toJson());
    LookupInput pii = LookupInput.pii("Ann", "Lee").with("zip", "62701").with("state", "IL");
    assertEquals(
        "{\"firstName\":\"Ann\",\"lastName\":\"Lee\",\"zip\":\"62701\",\"state\":\"IL\"}", Json.write(pii.toJson()));
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("customerId", "c-123");
    meta.put("row", 2);
    meta.put("vip", true);
    meta.put("note", null);
    LookupInput withMeta = LookupInput.email("a@b.example").withMetadata(meta);
    assertEquals(
        "{\"email\":\"a@b.example\",\"metadata\":{\"customerId\":\"c-123\",\"row\":2,\"vip\":true,\"note\":null}}",
        Json.write(withMeta.toJson()));
    // A plain string with metadata is sent as an object under the endpoint's key.
    assertEquals(
        "{\"email\":\"a@b.example\",\"metadata\":{\"k\":1}}",
        Json.write(LookupInput.plain("a@b.example").withMetadata(Map.of("k", 1)).toJson(Endpoint.BY_EMAIL)));
    assertNull(withMeta.withMetadata(null).metadata());
  }

  @Test
  void buildsEveryInput() {
    LookupInput all =
        LookupInput.builder()
            .email("e")
            .md5("m")
            .sha256("s")
            .phone("p")
            .ip("i")
            .device("d")
            .vin("v")
            .id(1)
            .firstName("f")
            .lastName("l")
            .address("a")
            .city("c")
            .state("st")
            .zip("z")
            .build();
    assertEquals(Endpoint.BY_ANY.inputs(), List.copyOf(all.fields().keySet()));
    all.check(Endpoint.BY_ANY);
    assertEquals("p", all.get("phone"));
    assertEquals(LookupInput.named(Map.of("email", "x")), LookupInput.email("x"));
  }

  @Test
  void refusesInputsAnEndpointDoesNotTake() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LookupInput.phone("1").check(Endpoint.BY_EMAIL));
    assertEquals("phone is not an input of byEmail.", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LookupInput.plain("Ann").check(Endpoint.BY_PII));
    assertThrows(IllegalArgumentException.class, () -> LookupInput.builder().set("name", "x"));
    assertThrows(IllegalStateException.class, () -> LookupInput.builder().build());
    assertThrows(IllegalStateException.class, () -> LookupInput.plain("x").with("email", "y"));
  }

  @Test
  void refusesNestedMetadata() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> LookupInput.email("a@b.example").withMetadata(Map.of("tags", List.of("a"))));
    assertEquals(
        "metadata.tags must be text, a number, true, false or null: metadata is one level deep.", e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> LookupInput.builder().email("x").metadata("n", Double.NaN));
  }

  @Test
  void writesOptionsAsQueryAndBody() {
    LookupOptions o = LookupOptions.defaults().template(2).minScore(80).explain(true).limit(3);
    assertEquals("{template=2, minScore=80, explain=true, limit=3, format=csv}", o.query("csv").toString());
    assertEquals("{template=2, minScore=80, explain=true, limit=3}", o.query(null).toString());
    assertEquals("{\"template\":2,\"minScore\":80,\"explain\":true,\"limit\":3}", Json.write(o.body(null)));
    assertEquals("{minScore=62.5}", LookupOptions.defaults().minScore(62.5).query(null).toString());
    assertEquals(Map.of(), LookupOptions.defaults().query(null));
    assertEquals(Duration.ofSeconds(2), LookupOptions.defaults().timeout(Duration.ofSeconds(2)).timeout());
  }

  @Test
  void refusesOptionsOutOfRange() {
    LookupOptions d = LookupOptions.defaults();
    for (Runnable bad :
        Arrays.<Runnable>asList(
            () -> d.template(0),
            () -> d.minScore(-1),
            () -> d.minScore(100.5),
            () -> d.minScore(Double.NaN),
            () -> d.limit(0),
            () -> d.limit(101),
            () -> d.idempotencyKey(""),
            () -> d.idempotencyKey("has space"),
            () -> d.idempotencyKey("x".repeat(256)),
            () -> d.timeout(Duration.ZERO))) {
      assertThrows(IllegalArgumentException.class, bad::run);
    }
    assertEquals("k".repeat(255), d.idempotencyKey("k".repeat(255)).idempotencyKey());
  }

  @Test
  void backsOffExponentiallyWithJitter() {
    RetryPolicy p = RetryPolicy.defaults().baseDelay(Duration.ofMillis(100)).maxDelay(Duration.ofMillis(1000));
    for (int i = 0; i < 50; i++) {
      long first = p.backoff(1).toMillis();
      long third = p.backoff(3).toMillis();
      long tenth = p.backoff(10).toMillis();
      assertBetween(50, 100, first);
      assertBetween(200, 400, third);
      assertBetween(500, 1000, tenth);
    }
    assertEquals(3, RetryPolicy.defaults().maxRetries());
    assertEquals(0, RetryPolicy.none().maxRetries());
    assertEquals(java.util.Set.of(429, 503), RetryPolicy.defaults().statuses());
  }

  private static void assertBetween(long lo, long hi, long v) {
    if (v < lo || v > hi) throw new AssertionError(v + " is not within " + lo + ".." + hi);
  }
}
