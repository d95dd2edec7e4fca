package com.tessera.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * An API key and the form in which it is presented in {@code Authorization: Bearer ...} (docs/api-keys.md):
 *
 * <ul>
 *   <li>{@link Form#PLAIN}: {@code {keyId}{secret}}, the key as made;
 *   <li>{@link Form#SIGNED}: {@code {keyId}{time}{signature}}, so the secret never travels: {@code time} is the
 *       current time in epoch milliseconds (decimal), {@code signature} the lowercase hex HMAC-SHA256 of {@code time}
 *       keyed with the secret; the server accepts a time within 5 minutes of its clock;
 *   <li>{@link Form#LEGACY}: {@code {keyId}{time}{md5}}, the original API's form, for keys made with {@code legacy}:
 *       {@code md5} the lowercase hex MD5 of {@code time} followed by the secret, {@code time} in base 10, 32 or 36.
 * </ul>
 *
 * <p>The key is given whole, as the console shows it once: the 16-character key id followed by the 32-character
 * secret. A fresh time is signed for every request (retries included). {@link #toString()} never shows the secret.
 */
public final class ApiKey {
  /** Characters of a key id. */
  public static final int ID_LENGTH = 16;
  /** Characters of a secret. */
  public static final int SECRET_LENGTH = 32;
  /** What a test key (the sandbox's, free) starts with, in every form. */
  public static final String TEST_KEY_PREFIX = "tk_test_";

  /** How the key is presented. */
  public enum Form {
    PLAIN,
    SIGNED,
    LEGACY
  }

  private final String keyId;
  private final String secret;
  private final Form form;
  private final int timeBase;

  private ApiKey(String keyId, String secret, Form form, int timeBase) {
    this.keyId = keyId;
    this.secret = secret;
    this.form = form;
    this.timeBase = timeBase;
  }

  /** The key sent as it is: {@code Bearer {keyId}{secret}}. */
  public static ApiKey plain(String key) {
    return of(key, Form.PLAIN);
  }

  /** The key sent as an HMAC-SHA256 signature of the time: {@code Bearer {keyId}{time}{hmac}}. */
  public static ApiKey signed(String key) {
    return of(key, Form.SIGNED);
  }

  /** The original API's MD5-signed form, time in decimal; the key must have been made with {@code legacy}. */
  public static ApiKey legacy(String key) {
    return legacy(key, 10);
  }

  /** The original API's MD5-signed form with the time written in base 10, 32 or 36. */
  public static ApiKey legacy(String key, int timeBase) {
    if (timeBase != 10 && timeBase != 32 && timeBase != 36) {
      throw new IllegalArgumentException("A legacy key's time is written in base 10, 32 or 36.");
    }
    ApiKey k = of(key, Form.LEGACY);
    return new ApiKey(k.keyId, k.secret, Form.LEGACY, timeBase);
  }

  /**
   * A whole key ({@code keyId + secret}, 48 letters and digits, after {@code tk_test_} for a test key) in the given
   * form. A test key's prefix stays with its id: every form presents it there.
   */
  public static ApiKey of(String key, Form form) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(form, "form");
    String whole = key.strip();
    int prefix = whole.startsWith(TEST_KEY_PREFIX) ? TEST_KEY_PREFIX.length() : 0;
    String k = whole.substring(prefix);
    if (k.length() != ID_LENGTH + SECRET_LENGTH || !k.chars().allMatch(ApiKey::isAlphanumeric)) {
      throw new IllegalArgumentException(
          "An API key is 48 letters and digits (after tk_test_ for a test key): its 16-character id followed by its"
              + " 32-character secret (got "
              + k.length()
              + " characters).");
    }
    return new ApiKey(whole.substring(0, prefix + ID_LENGTH), k.substring(ID_LENGTH), form, 10);
  }

  private static boolean isAlphanumeric(int c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  /** The key id: the first 16 characters. */
  public String keyId() {
    return keyId;
  }

  public Form form() {
    return form;
  }

  /** This key presented in another form. */
  public ApiKey as(Form other) {
    return new ApiKey(keyId, secret, other, timeBase);
  }

  /** The {@code Authorization} header value at {@code epochMillis}. */
  public String authorization(long epochMillis) {
    switch (form) {
      case PLAIN:
        return "Bearer " + keyId + secret;
      case SIGNED:
        {
          String time = Long.toString(epochMillis);
          return "Bearer " + keyId + time + hmacSha256Hex(secret, time);
        }
      case LEGACY:
        {
          String time = Long.toString(epochMillis, timeBase);
          return "Bearer " + keyId + time + md5Hex(time + secret);
        }
      default:
        throw new IllegalStateException("form " + form);
    }
  }

  static String hmacSha256Hex(String key, String message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return hex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  static String md5Hex(String message) {
    try {
      return hex(MessageDigest.getInstance("MD5").digest(message.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("MD5 is not available", e);
    }
  }

  private static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return "ApiKey[" + keyId + ", " + form.name().toLowerCase() + "]";
  }
}
