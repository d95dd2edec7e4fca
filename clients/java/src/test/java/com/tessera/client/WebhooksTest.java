package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Webhook signature verification (issue 33 item 4): the Standard Webhooks test vector, rotation and tampering. */
class WebhooksTest {
  private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  private static final String OTHER = "whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODk=";
  private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  private static final long TIMESTAMP = 1614265330L;
  private static final byte[] BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
  private static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

  private static Map<String, Object> headers(String signature, String timestamp) {
    return Map.of("webhook-id", ID, "Webhook-Timestamp", timestamp, "WEBHOOK-SIGNATURE", List.of(signature));
  }

  private static Clock at(long seconds) {
    return Clock.fixed(Instant.ofEpochSecond(seconds), ZoneOffset.UTC);
  }

  private static Map<String, Object> verify(List<String> secrets, Map<String, ?> headers, byte[] body, long now) {
    return Webhooks.verify(secrets, headers, body, Webhooks.DEFAULT_TOLERANCE_SECONDS, at(now));
  }

  @Test
  void signsAsTheSpecificationDoes() {
    assertEquals(SIGNATURE, Webhooks.signature(SECRET, ID, TIMESTAMP, BODY));
  }

  @Test
  void acceptsASignedDeliveryInAnyHeaderCaseAndReturnsItsEvent() {
    Map<String, Object> event = verify(List.of(SECRET), headers(SIGNATURE, "1614265330"), BODY, TIMESTAMP + 10);
    assertEquals(2432232314L, ((Number) event.get("test")).longValue());
  }

  @Test
  void acceptsEitherOfTwoSignaturesOrSecrets() {
    String both = Webhooks.signature(OTHER, ID, TIMESTAMP, BODY) + " " + SIGNATURE;
    verify(List.of(SECRET), headers(both, "1614265330"), BODY, TIMESTAMP);
    verify(List.of(OTHER, SECRET), headers(SIGNATURE, "1614265330"), BODY, TIMESTAMP);
  }

  @Test
  void refusesWhatTesseraDidNotSignJustNow() {
    byte[] changed = "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8);
    Map<String, Object> good = headers(SIGNATURE, "1614265330");
    assertEquals(
        "No webhook signature matches the body.",
        assertThrows(WebhookVerificationException.class, () -> verify(List.of(SECRET), good, changed, TIMESTAMP))
            .getMessage());
    assertThrows(WebhookVerificationException.class, () -> verify(List.of(OTHER), good, BODY, TIMESTAMP));
    assertEquals(
        "The webhook timestamp is too old.",
        assertThrows(WebhookVerificationException.class, () -> verify(List.of(SECRET), good, BODY, TIMESTAMP + 301))
            .getMessage());
    assertEquals(
        "The webhook timestamp is in the future.",
        assertThrows(WebhookVerificationException.class, () -> verify(List.of(SECRET), good, BODY, TIMESTAMP - 301))
            .getMessage());
    Map<String, Object> v2 = headers("v2," + SIGNATURE.substring(3), "1614265330");
    assertThrows(WebhookVerificationException.class, () -> verify(List.of(SECRET), v2, BODY, TIMESTAMP));
    Map<String, Object> noSignature = Map.of("webhook-id", ID, "webhook-timestamp", "1614265330");
    assertEquals(
        "A webhook header is missing.",
        assertThrows(
                WebhookVerificationException.class, () -> verify(List.of(SECRET), noSignature, BODY, TIMESTAMP))
            .getMessage());
    Map<String, Object> negative = headers(SIGNATURE, "-5");
    assertThrows(WebhookVerificationException.class, () -> verify(List.of(SECRET), negative, BODY, TIMESTAMP));
    for (String text : List.of("not json", "[1, 2]")) {
      byte[] body = text.getBytes(StandardCharsets.UTF_8);
      Map<String, Object> signed = headers(Webhooks.signature(SECRET, ID, TIMESTAMP, body), "1614265330");
      assertEquals(
          "The webhook body is not a JSON object.",
          assertThrows(WebhookVerificationException.class, () -> verify(List.of(SECRET), signed, body, TIMESTAMP))
              .getMessage());
    }
  }

  @Test
  void takesAMalformedSecretForTheSetUpErrorItIs() {
    Map<String, Object> good = headers(SIGNATURE, "1614265330");
    assertThrows(IllegalArgumentException.class, () -> verify(List.of("whsec_***"), good, BODY, TIMESTAMP));
  }

  @Test
  void checksTheTimestampDigitsAsSent() throws Exception {
    String padded = "0" + TIMESTAMP;
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
    mac.init(new javax.crypto.spec.SecretKeySpec(java.util.Base64.getDecoder().decode(SECRET.substring(6)), "HmacSHA256"));
    byte[] digest = mac.doFinal((ID + "." + padded + ".{\"test\": 2432232314}").getBytes(StandardCharsets.UTF_8));
    String signature = "v1," + java.util.Base64.getEncoder().encodeToString(digest);
    verify(List.of(SECRET), headers(signature, padded), BODY, TIMESTAMP);
  }
}
