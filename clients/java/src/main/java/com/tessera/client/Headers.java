package com.tessera.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A reply's headers: names compared without case, each with its values in the order received. */
public final class Headers {
  private final Map<String, List<String>> map;

  Headers(Map<String, List<String>> headers) {
    Map<String, List<String>> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach(
        (k, v) -> {
          if (k == null) return; // a status line some stacks list under null
          m.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v);
        });
    m.replaceAll((k, v) -> Collections.unmodifiableList(v));
    this.map = Collections.unmodifiableMap(m);
  }

  /** The first value of a header, or null. */
  public String first(String name) {
    List<String> values = map.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** Every value of a header (empty when absent). */
  public List<String> all(String name) {
    return map.getOrDefault(name, List.of());
  }

  /** All headers, names compared without case. */
  public Map<String, List<String>> map() {
    return map;
  }

  @Override
  public String toString() {
    return map.toString();
  }
}
