package com.tessera.client;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a subscription is made by: one identity by its id, or by one input resolved now to the identity holding it
 * (and followed to whoever holds it later); and optionally the template that shapes each event's record.
 *
 * <pre>{@code
 * client.subscriptions().create(NewSubscription.email("ann@example.com").template(3));
 * }</pre>
 */
public final class NewSubscription {
  private final String kind;
  private final Object value;
  private final Integer template;
  private final String idempotencyKey;

  private NewSubscription(String kind, Object value, Integer template, String idempotencyKey) {
    this.kind = kind;
    this.value = value;
    this.template = template;
    this.idempotencyKey = idempotencyKey;
  }

  /** The identity with this id. */
  public static NewSubscription identity(long identityId) {
    if (identityId < 1) throw new IllegalArgumentException("An identity id is a whole number from 1.");
    return new NewSubscription("identityId", identityId, null, null);
  }

  /** Whoever holds this e-mail address. */
  public static NewSubscription email(String email) {
    return new NewSubscription("email", Objects.requireNonNull(email, "email"), null, null);
  }

  /** Whoever holds this phone number. */
  public static NewSubscription phone(String phone) {
    return new NewSubscription("phone", Objects.requireNonNull(phone, "phone"), null, null);
  }

  /** Whoever holds the e-mail address of this MD5 hash. */
  public static NewSubscription md5(String md5) {
    return new NewSubscription("md5", Objects.requireNonNull(md5, "md5"), null, null);
  }

  /** Whoever holds the e-mail address of this SHA-256 hash. */
  public static NewSubscription sha256(String sha256) {
    return new NewSubscription("sha256", Objects.requireNonNull(sha256, "sha256"), null, null);
  }

  /** The template that shapes each event's record (1, Full, by default). */
  public NewSubscription template(int id) {
    if (id < 1) throw new IllegalArgumentException("template is a template id, 1 or more.");
    return new NewSubscription(kind, value, id, idempotencyKey);
  }

  /**
   * The call's Idempotency-Key: 1 to 255 visible ASCII characters. Without it the client makes a random one (unless
   * turned off in the builder); either way the same key is sent on every retry, and the server answers a repeat with
   * the first subscription, making no second one.
   */
  public NewSubscription idempotencyKey(String key) {
    return new NewSubscription(kind, value, template, LookupOptions.checkedIdempotencyKey(key));
  }

  String idempotencyKey() {
    return idempotencyKey;
  }

  /** The body of {@code POST /v2/subscriptions}. */
  Map<String, Object> body() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put(kind, value);
    if (template != null) body.put("template", template);
    return body;
  }

  @Override
  public String toString() {
    return "NewSubscription" + body();
  }
}
