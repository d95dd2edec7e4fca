package com.tessera.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One input of a lookup: either a plain string (the key of a single-key endpoint, e.g. an e-mail address for byEmail)
 * or named inputs ({@code email}, {@code phone}, {@code firstName}, ...), with optional {@code metadata} in a batch.
 *
 * <pre>{@code
 * LookupInput.email("ann@example.com")
 * LookupInput.builder().firstName("Ann").lastName("Lee").zip("62701").build()
 * LookupInput.email("ann@example.com").withMetadata(Map.of("customerId", "c-123"))
 * }</pre>
 *
 * <p>Metadata (batch only) is your own flat object, echoed unchanged in that input's result: its values text,
 * numbers, booleans or null, at most 1,024 bytes as JSON (the server checks the size).
 */
public final class LookupInput implements JsonWritable {
  /** Every input name any endpoint takes. */
  public static final Set<String> NAMES;

  static {
    Set<String> names = new LinkedHashSet<>(Endpoint.BY_ANY.inputs());
    NAMES = Collections.unmodifiableSet(names);
  }

  private final String plain;
  private final Map<String, String> fields;
  private final Map<String, Object> metadata;

  private LookupInput(String plain, Map<String, String> fields, Map<String, Object> metadata) {
    this.plain = plain;
    this.fields = fields;
    this.metadata = metadata;
  }

  /** The endpoint's key as a plain string: {@code "ann@example.com"} for byEmail, {@code "7"} for byId. */
  public static LookupInput plain(String value) {
    Objects.requireNonNull(value, "value");
    return new LookupInput(value, Map.of(), null);
  }

  /** Named inputs, in the order given. */
  public static LookupInput named(Map<String, String> inputs) {
    Builder b = builder();
    inputs.forEach(b::set);
    return b.build();
  }

  public static LookupInput email(String email) {
    return builder().email(email).build();
  }

  public static LookupInput phone(String phone) {
    return builder().phone(phone).build();
  }

  public static LookupInput ip(String ip) {
    return builder().ip(ip).build();
  }

  public static LookupInput device(String device) {
    return builder().device(device).build();
  }

  public static LookupInput md5(String md5) {
    return builder().md5(md5).build();
  }

  public static LookupInput sha256(String sha256) {
    return builder().sha256(sha256).build();
  }

  public static LookupInput vin(String vin) {
    return builder().vin(vin).build();
  }

  public static LookupInput id(long id) {
    return builder().id(id).build();
  }

  /** A name-and-place input; add {@code address}, {@code city}, {@code state} or {@code zip} with {@link #with}. */
  public static LookupInput pii(String firstName, String lastName) {
    return builder().firstName(firstName).lastName(lastName).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** This input with one more named input (or another value for it). */
  public LookupInput with(String name, String value) {
    return toBuilder().set(name, value).build();
  }

  /** This input with {@code metadata} (replacing any it had); null removes it. */
  public LookupInput withMetadata(Map<String, ?> metadata) {
    Builder b = toBuilder();
    b.metadata = null;
    if (metadata != null) metadata.forEach(b::metadata);
    if (metadata != null && metadata.isEmpty()) b.metadata = new LinkedHashMap<>();
    return b.build();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.plain = plain;
    b.fields.putAll(fields);
    if (metadata != null) b.metadata = new LinkedHashMap<>(metadata);
    return b;
  }

  /** The plain string, or null for named inputs. */
  public String plain() {
    return plain;
  }

  /** The named inputs (empty for a plain string). */
  public Map<String, String> fields() {
    return fields;
  }

  /** One named input, or null. */
  public String get(String name) {
    return fields.get(name);
  }

  /** The metadata, or null when there is none. */
  public Map<String, Object> metadata() {
    return metadata;
  }

  /**
   * The input's values by name as {@code endpoint} reads them: a plain string under the endpoint's key.
   *
   * @throws IllegalArgumentException when the endpoint does not take one of the names, or a plain string
   */
  public Map<String, String> namedFor(Endpoint endpoint) {
    if (plain != null) {
      String key = endpoint.plainKey();
      if (key == null) {
        throw new IllegalArgumentException(
            endpoint + " takes an object of named inputs (" + String.join(", ", endpoint.inputs()) + ").");
      }
      return Map.of(key, plain);
    }
    check(endpoint);
    return fields;
  }

  /** Throws when {@code endpoint} does not take this input. */
  public void check(Endpoint endpoint) {
    if (plain != null) {
      namedFor(endpoint);
      return;
    }
    if (fields.isEmpty()) {
      throw new IllegalArgumentException(
          endpoint + " needs at least one of its inputs: " + String.join(", ", endpoint.inputs()) + ".");
    }
    for (String name : fields.keySet()) {
      if (!endpoint.inputs().contains(name)) {
        throw new IllegalArgumentException(name + " is not an input of " + endpoint + ".");
      }
    }
  }

  /** As a batch sends it: the plain string, or an object of the named inputs and any {@code metadata}. */
  @Override
  public Object toJson() {
    if (plain != null && metadata == null) return plain;
    Map<String, Object> out = new LinkedHashMap<>(fields);
    if (metadata != null) out.put("metadata", metadata);
    return out;
  }

  /** As a batch of {@code endpoint} sends it: a plain string with metadata becomes an object under its key. */
  Object toJson(Endpoint endpoint) {
    check(endpoint);
    if (plain != null && metadata != null) {
      Map<String, Object> out = new LinkedHashMap<>(namedFor(endpoint));
      out.put("metadata", metadata);
      return out;
    }
    return toJson();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LookupInput)) return false;
    LookupInput other = (LookupInput) o;
    return Objects.equals(plain, other.plain)
        && fields.equals(other.fields)
        && Objects.equals(metadata, other.metadata);
  }

  @Override
  public int hashCode() {
    return Objects.hash(plain, fields, metadata);
  }

  @Override
  public String toString() {
    return "LookupInput" + Json.write(toJson());
  }

  /** Builds a {@link LookupInput} of named inputs. */
  public static final class Builder {
    private String plain;
    private final Map<String, String> fields = new LinkedHashMap<>();
    private Map<String, Object> metadata;

    private Builder() {}

    /** Sets a named input (null leaves it out). */
    public Builder set(String name, String value) {
      Objects.requireNonNull(name, "name");
      if (!NAMES.contains(name)) {
        throw new IllegalArgumentException(name + " is not an input of any lookup (" + String.join(", ", NAMES) + ").");
      }
      if (plain != null) {
        throw new IllegalStateException("A plain string input cannot take named inputs too.");
      }
      if (value == null) fields.remove(name);
      else fields.put(name, value);
      return this;
    }

    public Builder email(String v) {
      return set("email", v);
    }

    public Builder md5(String v) {
      return set("md5", v);
    }

    public Builder sha256(String v) {
      return set("sha256", v);
    }

    public Builder phone(String v) {
      return set("phone", v);
    }

    public Builder ip(String v) {
      return set("ip", v);
    }

    public Builder device(String v) {
      return set("device", v);
    }

    public Builder vin(String v) {
      return set("vin", v);
    }

    public Builder id(long v) {
      return set("id", Long.toString(v));
    }

    public Builder firstName(String v) {
      return set("firstName", v);
    }

    public Builder lastName(String v) {
      return set("lastName", v);
    }

    public Builder address(String v) {
      return set("address", v);
    }

    public Builder city(String v) {
      return set("city", v);
    }

    public Builder state(String v) {
      return set("state", v);
    }

    public Builder zip(String v) {
      return set("zip", v);
    }

    /** Adds one metadata entry: text, a number, a boolean or null (metadata is one level deep). */
    public Builder metadata(String key, Object value) {
      Objects.requireNonNull(key, "key");
      if (!(value == null || value instanceof String || value instanceof Boolean || value instanceof Number)) {
        throw new IllegalArgumentException(
            "metadata." + key + " must be text, a number, true, false or null: metadata is one level deep.");
      }
      if (value instanceof Double && (((Double) value).isNaN() || ((Double) value).isInfinite())) {
        throw new IllegalArgumentException("metadata." + key + " must be a finite number.");
      }
      if (metadata == null) metadata = new LinkedHashMap<>();
      metadata.put(key, value);
      return this;
    }

    public LookupInput build() {
      if (plain == null && fields.isEmpty()) {
        throw new IllegalStateException("A lookup input needs at least one named input.");
      }
      return new LookupInput(
          plain,
          Collections.unmodifiableMap(new LinkedHashMap<>(fields)),
          metadata == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(metadata)));
    }
  }
}
