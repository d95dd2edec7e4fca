package com.tessera.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The reply to a batch lookup (POST): one {@link Item} per input, in the order of the inputs. */
public final class BatchResult implements JsonWritable {
  private final String requestId;
  private final List<Item> results;
  private final ResponseInfo info;

  BatchResult(Map<String, Object> json, ResponseInfo info) {
    this.requestId = JsonFields.optionalString(json, "requestId", "reply");
    List<Object> list = JsonFields.array(JsonFields.required(json, "results", "reply"), "reply.results");
    List<Item> items = new ArrayList<>(list.size());
    for (int k = 0; k < list.size(); k++) {
      String at = "reply.results." + k;
      items.add(new Item(JsonFields.object(list.get(k), at), at));
    }
    this.results = Collections.unmodifiableList(items);
    this.info = info;
  }

  public String requestId() {
    return requestId;
  }

  /** One result per input, in the order of the inputs. */
  public List<Item> results() {
    return results;
  }

  /** Status, headers, rate limit, idempotency and attempts of the reply. */
  public ResponseInfo info() {
    return info;
  }

  @Override
  public Object toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("requestId", requestId);
    m.put("results", results);
    return m;
  }

  @Override
  public String toString() {
    return Json.write(this);
  }

  /** One input's result: the input as echoed, its metadata if it had any, and the identities found. */
  public static final class Item implements JsonWritable {
    private final Object input;
    private final Map<String, Object> metadata;
    private final List<Identity> identities;

    Item(Map<String, Object> json, String where) {
      Object in = JsonFields.required(json, "input", where);
      if (!(in instanceof String)) in = JsonFields.stringMap(in, where + ".input");
      this.input = in;
      Object meta = json.get("metadata");
      this.metadata = meta == null ? null : JsonFields.frozenObject(meta, where + ".metadata");
      this.identities = LookupResult.readIdentities(json, where);
    }

    /** The input as sent: a String, or a {@code Map<String, String>} of named inputs (blank ones left out). */
    public Object input() {
      return input;
    }

    /** The input's metadata, echoed as sent; null when it had none. */
    public Map<String, Object> metadata() {
      return metadata;
    }

    public List<Identity> identities() {
      return identities;
    }

    /**
     * The identities as typed Full records (the default template).
     *
     * @throws JsonException when another template made them
     */
    public List<FullIdentity> fullIdentities() {
      return LookupResult.full(identities);
    }

    @Override
    public Object toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("input", input);
      if (metadata != null) m.put("metadata", metadata);
      m.put("identities", identities);
      return m;
    }
  }
}
