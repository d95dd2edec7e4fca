package com.tessera.client;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Typed reads of a parsed JSON object, failing with a {@link JsonException} that names the field. */
final class JsonFields {
  private JsonFields() {}

  static JsonException wrong(String where, String what) {
    return new JsonException("Unexpected reply: " + where + " should be " + what + ".", 0, 0, 0);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value, String where) {
    if (!(value instanceof Map)) throw wrong(where, "an object");
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  static List<Object> array(Object value, String where) {
    if (!(value instanceof List)) throw wrong(where, "an array");
    return (List<Object>) value;
  }

  static Object required(Map<String, Object> map, String key, String where) {
    if (!map.containsKey(key)) throw wrong(where + "." + key, "present");
    return map.get(key);
  }

  static String string(Map<String, Object> map, String key, String where) {
    Object v = required(map, key, where);
    if (!(v instanceof String)) throw wrong(where + "." + key, "a string");
    return (String) v;
  }

  static String optionalString(Map<String, Object> map, String key, String where) {
    Object v = map.get(key);
    if (v == null) return null;
    if (!(v instanceof String)) throw wrong(where + "." + key, "a string");
    return (String) v;
  }

  static boolean bool(Map<String, Object> map, String key, String where) {
    Object v = required(map, key, where);
    if (!(v instanceof Boolean)) throw wrong(where + "." + key, "true or false");
    return (Boolean) v;
  }

  static double number(Map<String, Object> map, String key, String where) {
    Object v = required(map, key, where);
    if (!(v instanceof Number)) throw wrong(where + "." + key, "a number");
    return ((Number) v).doubleValue();
  }

  static long integer(Map<String, Object> map, String key, String where) {
    Object v = required(map, key, where);
    if (!(v instanceof Long)) throw wrong(where + "." + key, "a whole number");
    return (Long) v;
  }

  /** A whole number or null. */
  static Long nullableInteger(Map<String, Object> map, String key, String where) {
    Object v = required(map, key, where);
    if (v == null) return null;
    if (!(v instanceof Long)) throw wrong(where + "." + key, "a whole number or null");
    return (Long) v;
  }

  static LocalDate date(Map<String, Object> map, String key, String where) {
    String v = string(map, key, where);
    try {
      return LocalDate.parse(v);
    } catch (DateTimeParseException e) {
      throw wrong(where + "." + key, "a date (YYYY-MM-DD)");
    }
  }

  static List<String> strings(Object value, String where) {
    List<Object> list = array(value, where);
    List<String> out = new ArrayList<>(list.size());
    for (int k = 0; k < list.size(); k++) {
      Object item = list.get(k);
      if (!(item instanceof String)) throw wrong(where + "." + k, "a string");
      out.add((String) item);
    }
    return Collections.unmodifiableList(out);
  }

  static <T> List<T> objects(
      Map<String, Object> map, String key, String where, Function<Map<String, Object>, T> read) {
    List<Object> list = array(required(map, key, where), where + "." + key);
    List<T> out = new ArrayList<>(list.size());
    for (int k = 0; k < list.size(); k++) out.add(read.apply(object(list.get(k), where + "." + key + "." + k)));
    return Collections.unmodifiableList(out);
  }

  /** An object of strings. */
  static Map<String, String> stringMap(Object value, String where) {
    Map<String, Object> map = object(value, where);
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : map.entrySet()) {
      if (!(e.getValue() instanceof String)) throw wrong(where + "." + e.getKey(), "a string");
      out.put(e.getKey(), (String) e.getValue());
    }
    return Collections.unmodifiableMap(out);
  }

  /** A deep, unmodifiable copy of a parsed JSON value. */
  @SuppressWarnings("unchecked")
  static Object frozen(Object value) {
    if (value instanceof Map) {
      Map<String, Object> out = new LinkedHashMap<>();
      ((Map<String, Object>) value).forEach((k, v) -> out.put(k, frozen(v)));
      return Collections.unmodifiableMap(out);
    }
    if (value instanceof List) {
      List<Object> out = new ArrayList<>();
      for (Object v : (List<Object>) value) out.add(frozen(v));
      return Collections.unmodifiableList(out);
    }
    return value;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> frozenObject(Object value, String where) {
    return (Map<String, Object>) frozen(object(value, where));
  }
}
