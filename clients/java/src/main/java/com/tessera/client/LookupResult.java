package com.tessera.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The reply to a single lookup (GET): the identities found, best score first (empty when nothing matched). */
public final class LookupResult implements JsonWritable {
  private final String requestId;
  private final List<Identity> identities;
  private final ResponseInfo info;

  LookupResult(Map<String, Object> json, ResponseInfo info) {
    this.requestId = JsonFields.optionalString(json, "requestId", "reply");
    this.identities = readIdentities(json, "reply");
    this.info = info;
  }

  static List<Identity> readIdentities(Map<String, Object> json, String where) {
    List<Object> list = JsonFields.array(JsonFields.required(json, "identities", where), where + ".identities");
    List<Identity> out = new ArrayList<>(list.size());
    for (int k = 0; k < list.size(); k++) {
      String at = where + ".identities." + k;
      out.add(new Identity(JsonFields.object(list.get(k), at), at));
    }
    return Collections.unmodifiableList(out);
  }

  static List<FullIdentity> full(List<Identity> identities) {
    List<FullIdentity> out = new ArrayList<>(identities.size());
    for (Identity i : identities) out.add(i.full());
    return Collections.unmodifiableList(out);
  }

  /** The request's id, as in the reply's body and its X-Request-Id header. */
  public String requestId() {
    return requestId;
  }

  /** The identities found, of any template. */
  public List<Identity> identities() {
    return identities;
  }

  /**
   * The identities as typed Full records (the default template).
   *
   * @throws JsonException when another template made them
   */
  public List<FullIdentity> fullIdentities() {
    return full(identities);
  }

  /** Status, headers, rate limit and attempts of the reply. */
  public ResponseInfo info() {
    return info;
  }

  @Override
  public Object toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("requestId", requestId);
    m.put("identities", identities);
    return m;
  }

  @Override
  public String toString() {
    return Json.write(this);
  }
}
