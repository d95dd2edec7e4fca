package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tessera.client.RetryPolicy.RetryEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A 429 from the real server, retried after its Retry-After. The key (TESSERA_LIMITED_KEY) allows 30 requests a
 * minute in a sliding window, so once they are used the server asks to wait until its minute ends plus about two
 * seconds: up to about a minute, while the other test classes run.
 */
class LiveRateLimitTest {
  @Test
  void retriesA429AfterItsRetryAfter() {
    ApiKey key = ApiKey.plain(Live.env("TESSERA_LIMITED_KEY"));
    long id = Long.parseLong(Live.env("TESSERA_IDENTITY_ID"));

    TesseraClient once = Live.builder(key).retry(RetryPolicy.none()).build();
    TesseraException refused = null;
    ResponseInfo served = null;
    for (int i = 0; i < 100 && refused == null; i++) {
      try {
        served = once.byId(id, LookupOptions.defaults().template(3)).info();
      } catch (TesseraException e) {
        refused = e;
      }
    }
    assertNotNull(served, "no call was served");
    assertNotNull(refused, "100 calls of a key limited to 30 a minute were all served");
    assertEquals(429, refused.status());
    assertEquals("rate_limited", refused.code());
    assertNotNull(refused.retryAfter());
    assertTrue(refused.getMessage().contains("30 requests a minute"), refused.getMessage());
    RateLimit limit = served.rateLimit();
    assertNotNull(limit, "a limited key's replies carry RateLimit headers");
    assertEquals(Integer.valueOf(30), limit.limit());
    assertTrue(limit.policy().contains("\"key\";q=30;w=60"), limit.policy());

    List<RetryEvent> events = Collections.synchronizedList(new ArrayList<>());
    TesseraClient retrying =
        Live.builder(key)
            .retry(RetryPolicy.defaults().maxRetryAfter(Duration.ofMinutes(3)).listener(events::add))
            .build();
    long t0 = System.nanoTime();
    LookupResult result = retrying.byId(id, LookupOptions.defaults().template(3));
    long waitedMs = (System.nanoTime() - t0) / 1_000_000;

    assertEquals(Long.valueOf(id), result.identities().get(0).id());
    assertTrue(events.size() >= 1, "the first attempt was not refused");
    assertEquals(events.size() + 1, result.info().attempts());
    RetryEvent first = events.get(0);
    assertEquals(429, first.status());
    assertTrue(first.fromRetryAfter());
    long header = Long.parseLong(first.error().headers().first("Retry-After"));
    assertEquals(Duration.ofSeconds(header), first.delay());
    assertTrue(waitedMs >= header * 1000, "waited " + waitedMs + " ms for a Retry-After of " + header + " s");
    System.out.println(
        "429 retried after Retry-After: "
            + header
            + " s ("
            + result.info().attempts()
            + " attempts, "
            + waitedMs
            + " ms)");
  }
}
