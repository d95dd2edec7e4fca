package com.tessera.client;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * A change subscription to one identity, as the server answered it ({@code /v2/subscriptions}, docs/subscriptions.md):
 * each time the identity's record changes, the organization's webhook endpoints get an {@code identity.changed}
 * event. Immutable; {@link #toJson()} gives the server's object as sent.
 */
public final class Subscription implements JsonWritable {
  /**
   * The input a subscription was made by, normalized.
   *
   * @param kind {@code email}, {@code phone}, {@code md5} or {@code sha256}
   * @param value the input
   */
  public record Input(String kind, String value) {}

  private final Map<String, Object> json;
  private final long id;
  private final long identityId;
  private final Input input;
  private final Instant createdAt;
  private final ResponseInfo info;

  Subscription(Map<String, Object> json, ResponseInfo info) {
    this.json = JsonFields.frozenObject(json, "subscription");
    this.id = JsonFields.integer(json, "id", "subscription");
    this.identityId = JsonFields.integer(json, "identityId", "subscription");
    Object given = JsonFields.required(json, "input", "subscription");
    if (given == null) {
      this.input = null;
    } else {
      Map<String, Object> in = JsonFields.object(given, "subscription.input");
      this.input =
          new Input(
              JsonFields.string(in, "kind", "subscription.input"),
              JsonFields.string(in, "value", "subscription.input"));
    }
    try {
      this.createdAt = Instant.parse(JsonFields.string(json, "createdAt", "subscription"));
    } catch (DateTimeParseException e) {
      throw JsonFields.wrong("subscription.createdAt", "a time (ISO 8601)");
    }
    this.info = info;
    organizationId();
    userId();
    templateId();
    keyId();
  }

  public long id() {
    return id;
  }

  public long organizationId() {
    return JsonFields.integer(json, "organizationId", "subscription");
  }

  /** Who subscribed (the key's user for a key). */
  public long userId() {
    return JsonFields.integer(json, "userId", "subscription");
  }

  /** The API key that subscribed; null for a console user. */
  public String keyId() {
    return JsonFields.optionalString(json, "keyId", "subscription");
  }

  /** The identity it follows now (an input may move it to another). */
  public long identityId() {
    return identityId;
  }

  /** The input it was made by; null for a subscription by identity id. */
  public Input input() {
    return input;
  }

  /** The template shaping each event's record. */
  public long templateId() {
    return JsonFields.integer(json, "templateId", "subscription");
  }

  public Instant createdAt() {
    return createdAt;
  }

  /** Status, headers and attempts of the reply it came in. */
  public ResponseInfo info() {
    return info;
  }

  /** The subscription as the server sent it. */
  @Override
  public Object toJson() {
    return json;
  }

  @Override
  public String toString() {
    return Json.write(this);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Subscription && ((Subscription) o).json.equals(json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }
}
