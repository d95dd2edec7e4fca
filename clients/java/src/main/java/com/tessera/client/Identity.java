package com.tessera.client;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One identity found by a lookup, of any template: its {@link #score()}, what it {@link #matchedOn()}, the {@link
 * #explain()} asked for with {@code explain}, and the fields the template makes, as a generic JSON value ({@link
 * #json()}, {@link #get(String)}). With the Full template (id 1, the default) {@link #full()} reads it as a typed
 * {@link FullIdentity}.
 */
public final class Identity implements JsonWritable {
  private final Map<String, Object> json;
  private final double score;
  private final List<String> matchedOn;

  Identity(Map<String, Object> json, String where) {
    this.json = JsonFields.frozenObject(json, where);
    this.score = JsonFields.number(this.json, "score", where);
    this.matchedOn = JsonFields.strings(JsonFields.required(this.json, "matchedOn", where), where + ".matchedOn");
  }

  /** Reads an identity from its parsed JSON object. */
  public static Identity of(Map<String, Object> json) {
    return new Identity(json, "identity");
  }

  /** How sure the match is, 0 to 100. */
  public double score() {
    return score;
  }

  /** The inputs it matched on ({@code email}, {@code phone}, {@code firstName}, ...). */
  public List<String> matchedOn() {
    return matchedOn;
  }

  /** With {@code explain}: each field's contribution to the score; otherwise null. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> explain() {
    Object v = json.get("explain");
    return v instanceof Map ? (Map<String, Object>) v : null;
  }

  /** The whole identity as JSON values (unmodifiable), score and matchedOn included. */
  public Map<String, Object> json() {
    return json;
  }

  /** One field of the identity as a JSON value, or null. */
  public Object get(String field) {
    return json.get(field);
  }

  /** The identity id, when the template gives {@code id} (every system template does); otherwise null. */
  public Long id() {
    Object v = json.get("id");
    return v instanceof Long ? (Long) v : null;
  }

  /**
   * The identity as the Full template makes it.
   *
   * @throws JsonException when it was made by another template (a field of the Full record is missing)
   */
  public FullIdentity full() {
    return FullIdentity.of(json);
  }

  @Override
  public Object toJson() {
    return json;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Identity && json.equals(((Identity) o).json);
  }

  @Override
  public int hashCode() {
    return Objects.hash(json);
  }

  @Override
  public String toString() {
    return Json.write(json);
  }
}
