package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Against the really started server (issue 31): the exception class of each refusal the server can be made to give,
 * a call retried after its connection was reset with no reply (through a relay that breaks its next connection once
 * armed, TESSERA_RELAY_URL and TESSERA_RELAY_CONTROL), and every kind of call through an HTTP proxy
 * (TESSERA_PROXY_URL) that lists what it carried. Both run in test/java.suite.test.ts.
 */
class LiveNetworkTest {
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static String get(String url, String method) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url));
    r = "POST".equals(method) ? r.POST(HttpRequest.BodyPublishers.noBody()) : r.GET();
    return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  /** Breaks the relay's next new connection; returns the connections it had broken before. */
  static long arm() throws Exception {
    Map<?, ?> before = (Map<?, ?>) Json.parse(get(Live.env("TESSERA_RELAY_CONTROL") + "/count", "GET"));
    get(Live.env("TESSERA_RELAY_CONTROL") + "/arm", "POST");
    return (Long) before.get("broken");
  }

  static long broken() throws Exception {
    return (Long) ((Map<?, ?>) Json.parse(get(Live.env("TESSERA_RELAY_CONTROL") + "/count", "GET"))).get("broken");
  }

  /** A new client (so new connections) to the server through the relay, retrying after 10 ms. */
  static TesseraClient.Builder viaRelay() {
    return TesseraClient.builder()
        .baseUrl(Live.env("TESSERA_RELAY_URL"))
        .apiKey(Live.env("TESSERA_API_KEY"))
        .retry(RetryPolicy.defaults().baseDelay(Duration.ofMillis(10)));
  }

  @Test
  void throwsTheClassOfEachRefusalTheServerGives() {
    TesseraClient client = Live.client();
    InvalidRequestException invalid =
        assertThrows(InvalidRequestException.class, () -> client.byEmail("not-an-email"));
    assertEquals("validation_failed", invalid.code());
    TesseraClient wrong =
        Live.builder(ApiKey.plain(Live.env("TESSERA_API_KEY").substring(0, 16) + "x".repeat(32))).build();
    assertEquals(401, assertThrows(AuthenticationException.class, () -> wrong.byEmail("a@b.example")).status());
    // The same Idempotency-Key with another request: 422, an invalid request too.
    String key = "java-" + UUID.randomUUID();
    LookupOptions keyed = LookupOptions.defaults().idempotencyKey(key);
    client.batch(Endpoint.BY_EMAIL, List.of(LookupInput.plain("a@b.example")), keyed);
    InvalidRequestException reused =
        assertThrows(
            InvalidRequestException.class,
            () -> client.batch(Endpoint.BY_EMAIL, List.of(LookupInput.plain("c@d.example")), keyed));
    assertEquals(422, reused.status());
    // Every one is still a TesseraException, for catches written before.
    TesseraException general = assertThrows(TesseraException.class, () -> wrong.byEmail("a@b.example"));
    assertTrue(general instanceof AuthenticationException);
  }

  @Test
  void retriesAGetWhoseConnectionWasResetBeforeAReply() throws Exception {
    long before = arm();
    LookupResult result = viaRelay().build().byEmail(Live.env("TESSERA_EMAIL"));
    assertEquals(before + 1, broken(), "the relay broke a connection");
    // java.net.http sends an idempotent GET again once by itself when its connection closes before the reply (so
    // this is attempt 1 or 2 here); the client's own retry of a call without a reply is the POST's, below.
    assertTrue(result.info().attempts() <= 2);
    Long id = Long.valueOf(Live.env("TESSERA_IDENTITY_ID"));
    assertTrue(result.identities().stream().anyMatch(i -> id.equals(i.id())));
  }

  @Test
  void retriesABatchUnderItsDefaultIdempotencyKeyButNotOneWithout() throws Exception {
    List<LookupInput> inputs = List.of(LookupInput.plain(Live.env("TESSERA_EMAIL")));
    long before = arm();
    BatchResult result = viaRelay().build().batch(Endpoint.BY_EMAIL, inputs);
    assertEquals(before + 1, broken());
    assertEquals(2, result.info().attempts());
    assertNotNull(result.info().idempotencyKey(), "a POST carries an Idempotency-Key by default");
    arm();
    TesseraClient keyless = viaRelay().autoIdempotencyKeys(false).build();
    TesseraConnectionException e =
        assertThrows(TesseraConnectionException.class, () -> keyless.batch(Endpoint.BY_EMAIL, inputs));
    assertEquals(TesseraException.NETWORK, e.code());
    assertEquals(before + 2, broken());
  }

  @Test
  void retriesAnUploadUnderItsKeyWithTheFileSentAgain() throws Exception {
    arm();
    byte[] csv = ("email\n" + Live.env("TESSERA_EMAIL") + "\n").getBytes(StandardCharsets.UTF_8);
    try (CsvReply reply = viaRelay().build().upload(Endpoint.BY_EMAIL, new ByteArrayInputStream(csv))) {
      assertEquals(2, reply.info().attempts());
      assertTrue(reply.reader().lines().anyMatch(l -> l.contains(Live.env("TESSERA_IDENTITY_ID"))));
    }
  }

  @Test
  void sendsEveryCallThroughTheConfiguredProxyUploadsIncluded() throws Exception {
    URI proxy = URI.create(Live.env("TESSERA_PROXY_URL"));
    TesseraClient client =
        Live.builder(ApiKey.plain(Live.env("TESSERA_API_KEY"))).proxy(proxy.getHost(), proxy.getPort()).build();
    String marker = "java-proxy-" + UUID.randomUUID() + "@example.com";
    client.byEmail(marker);
    client.batch(Endpoint.BY_EMAIL, List.of(LookupInput.plain(marker)));
    byte[] csv = ("email\n" + marker + "\n").getBytes(StandardCharsets.UTF_8);
    try (CsvReply reply = client.upload(Endpoint.BY_EMAIL, new ByteArrayInputStream(csv))) {
      assertTrue(reply.reader().lines().count() >= 1);
    }
    String seen = get(Live.env("TESSERA_PROXY_URL") + "/__seen", "GET");
    List<?> all = (List<?>) Json.parse(seen);
    String path = Live.env("TESSERA_BASE_URL") + "/v2/identities/byEmail";
    String asked = marker.replace("@", "%40");
    long gets = all.stream().filter(o -> ((Map<?, ?>) o).get("url").toString().contains(asked)).count();
    assertEquals(1, gets, seen);
    // The batch and the upload: a POST and a PUT to the endpoint, each with its Idempotency-Key.
    for (String method : List.of("POST", "PUT")) {
      assertTrue(
          all.stream()
              .map(o -> (Map<?, ?>) o)
              .anyMatch(
                  m ->
                      method.equals(m.get("method"))
                          && m.get("url").toString().startsWith(path)
                          && m.get("idempotencyKey") != null),
          method + " through the proxy: " + seen);
    }
  }
}
