package com.tessera.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies Tessera's webhook deliveries (Standard Webhooks, https://www.standardwebhooks.com).
 *
 * <p>Every delivery carries {@code webhook-id}, {@code webhook-timestamp} and {@code webhook-signature}; the signature
 * is {@code v1,} followed by the base64 of HMAC-SHA256 over {@code id.timestamp.body}, keyed with the base64-decoded
 * signing secret after its {@code whsec_} prefix. During a rotation's overlap the header holds two signatures.
 *
 * <pre>{@code
 * Map<String, Object> event = Webhooks.verify(secret, headers, bodyBytes); // throws WebhookVerificationException
 * String type = (String) event.get("type");
 * }</pre>
 *
 * <p>Verify the exact bytes received, before parsing them; answer 2xx quickly and drop repeats by {@code webhook-id}
 * (a retry or a replay carries the same one).
 */
public final class Webhooks {
  /** How far a delivery's timestamp may be from the receiver's clock, either way: 5 minutes. */
  public static final long DEFAULT_TOLERANCE_SECONDS = 300;

  private static final String SECRET_PREFIX = "whsec_";
  private static final Pattern SECONDS = Pattern.compile("[0-9]{1,12}");

  private Webhooks() {}

  /** Checks a delivery against the clock with the default tolerance and returns its event. */
  public static Map<String, Object> verify(String secret, Map<String, ?> headers, byte[] body) {
    return verify(List.of(secret), headers, body, DEFAULT_TOLERANCE_SECONDS, Clock.systemUTC());
  }

  /**
   * Checks a delivery and returns its event ({@code type}, {@code timestamp}, {@code data}).
   *
   * @param secrets one or more signing secrets (the current and the previous one during your own rotation)
   * @param headers the request's headers, any case; a value may be a String or a List of them
   * @param body the exact bytes of the request body
   * @param toleranceSeconds how far {@code webhook-timestamp} may be from {@code clock}, either way
   * @param clock the receiver's clock
   * @return the event, parsed
   * @throws WebhookVerificationException when a header is missing, the timestamp is out of tolerance, no {@code v1}
   *     signature matches, or the body is not a JSON object
   * @throws IllegalArgumentException when a secret is malformed (the receiver's set-up, not the delivery)
   */
  public static Map<String, Object> verify(
      List<String> secrets, Map<String, ?> headers, byte[] body, long toleranceSeconds, Clock clock) {
    String id = header(headers, "webhook-id");
    String stamp = header(headers, "webhook-timestamp");
    String signatures = header(headers, "webhook-signature");
    if (id == null || stamp == null || signatures == null || id.isEmpty() || signatures.isEmpty()) {
      throw new WebhookVerificationException("A webhook header is missing.");
    }
    if (!SECONDS.matcher(stamp).matches()) {
      throw new WebhookVerificationException("The webhook timestamp is not unix seconds.");
    }
    long timestamp = Long.parseLong(stamp);
    long skew = clock.instant().getEpochSecond() - timestamp;
    if (skew > toleranceSeconds) throw new WebhookVerificationException("The webhook timestamp is too old.");
    if (skew < -toleranceSeconds) throw new WebhookVerificationException("The webhook timestamp is in the future.");
    List<byte[]> expected = new ArrayList<>();
    // The header's digits as sent: they are what was signed.
    for (String secret : secrets) expected.add(digest(key(secret), id, stamp, body));
    for (String signature : signatures.split(" ")) {
      int comma = signature.indexOf(',');
      if (comma < 0 || !signature.substring(0, comma).equals("v1")) continue;
      byte[] given;
      try {
        given = Base64.getDecoder().decode(signature.substring(comma + 1));
      } catch (IllegalArgumentException e) {
        continue;
      }
      for (byte[] e : expected) {
        if (MessageDigest.isEqual(e, given)) return parse(body);
      }
    }
    throw new WebhookVerificationException("No webhook signature matches the body.");
  }

  /** One {@code v1,...} signature as Tessera computes it (for tests of a receiver). */
  public static String signature(String secret, String id, long timestamp, byte[] body) {
    return "v1," + Base64.getEncoder().encodeToString(digest(key(secret), id, Long.toString(timestamp), body));
  }

  private static Map<String, Object> parse(byte[] body) {
    try {
      return Json.parseObject(new String(body, StandardCharsets.UTF_8));
    } catch (JsonException e) {
      throw new WebhookVerificationException("The webhook body is not a JSON object.");
    }
  }

  private static byte[] key(String secret) {
    String encoded = secret.startsWith(SECRET_PREFIX) ? secret.substring(SECRET_PREFIX.length()) : secret;
    byte[] key;
    try {
      key = Base64.getDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      key = new byte[0];
    }
    // The receiver's own set-up, not a forged delivery: a programming error rather than a refusal.
    if (key.length == 0) {
      throw new IllegalArgumentException(
          "The signing secret is empty or not base64: copy it whole from the console (whsec_...).");
    }
    return key;
  }

  private static byte[] digest(byte[] key, String id, String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static String header(Map<String, ?> headers, String name) {
    for (Map.Entry<String, ?> entry : headers.entrySet()) {
      if (entry.getKey() == null || !entry.getKey().toLowerCase(Locale.ROOT).equals(name)) continue;
      Object value = entry.getValue();
      if (value instanceof List<?> list) value = list.isEmpty() ? null : list.get(0);
      return value == null ? null : value.toString();
    }
    return null;
  }
}
