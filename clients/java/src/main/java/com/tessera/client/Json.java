package com.tessera.client;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON (RFC 8259) reader and writer, so the client needs no library.
 *
 * <p>JSON values are plain Java values: an object is a {@code Map<String, Object>} (a {@link LinkedHashMap}, keys in
 * the order read; a repeated key keeps its last value), an array a {@code List<Object>} (an {@link ArrayList}), a
 * string a {@link String}, {@code true}/{@code false} a {@link Boolean}, {@code null} Java's {@code null}. A number
 * without fraction or exponent is a {@link Long} (a {@link BigInteger} past the range of long; {@code -0} is the
 * {@link Double} -0.0), any other number a {@link Double} (a {@link BigDecimal} past the range of double).
 *
 * <p>The reader accepts exactly RFC 8259 (no comments, trailing commas, single quotes, NaN, leading zeros or control
 * characters inside strings), ignores a byte-order mark at the start, and refuses nesting deeper than {@link
 * #MAX_DEPTH}. Every refusal is a {@link JsonException} naming the line and column.
 */
public final class Json {
  /** Arrays and objects nested deeper than this are refused (reading and writing alike). */
  public static final int MAX_DEPTH = 512;

  private Json() {}

  /** Reads one JSON text. */
  public static Object parse(String text) {
    if (text == null) throw new IllegalArgumentException("text is null");
    Reader reader = new Reader(text);
    return reader.document();
  }

  /** Reads one JSON text from UTF-8 bytes; bytes that are not UTF-8 are refused. */
  public static Object parse(byte[] utf8) {
    if (utf8 == null) throw new IllegalArgumentException("bytes are null");
    String text;
    try {
      text = StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(utf8))
          .toString();
    } catch (CharacterCodingException e) {
      throw new JsonException("The JSON text is not valid UTF-8.", 0, 1, 1);
    }
    return parse(text);
  }

  /** Reads a JSON text that must be an object. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> parseObject(String text) {
    Object value = parse(text);
    if (!(value instanceof Map)) throw new JsonException("Expected a JSON object.", 0, 1, 1);
    return (Map<String, Object>) value;
  }

  /** Writes a value as compact JSON. See the class comment for the values it takes, and {@link JsonWritable}. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    new Writer(out, null).value(value, 0);
    return out.toString();
  }

  /** Writes a value as JSON indented by two spaces, one member or element a line. */
  public static String pretty(Object value) {
    StringBuilder out = new StringBuilder();
    new Writer(out, "  ").value(value, 0);
    return out.toString();
  }

  /** Writes a string as a JSON string literal, quotes included. */
  public static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2);
    Writer.string(out, text);
    return out.toString();
  }

  // ------------------------------------------------------------------------------------------------ reading

  private static final class Reader {
    private final String s;
    private int i;

    Reader(String s) {
      this.s = s;
      this.i = !s.isEmpty() && s.charAt(0) == '\uFEFF' ? 1 : 0;
    }

    Object document() {
      space();
      Object value = value(0);
      space();
      if (i < s.length()) throw fail("Unexpected " + describe(i) + " after the JSON value");
      return value;
    }

    private Object value(int depth) {
      if (i >= s.length()) throw fail("Unexpected end of JSON input");
      char c = s.charAt(i);
      switch (c) {
        case '{':
          return object(depth + 1);
        case '[':
          return array(depth + 1);
        case '"':
          return string();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          return literal("null", null);
        default:
          if (c == '-' || (c >= '0' && c <= '9')) return number();
          throw fail("Unexpected " + describe(i));
      }
    }

    private Map<String, Object> object(int depth) {
      if (depth > MAX_DEPTH) throw fail("JSON nested deeper than " + MAX_DEPTH + " levels");
      i++; // {
      Map<String, Object> map = new LinkedHashMap<>();
      space();
      if (peek() == '}') {
        i++;
        return map;
      }
      while (true) {
        space();
        if (peek() != '"') throw fail("Expected a string key but found " + describe(i));
        String key = string();
        space();
        if (peek() != ':') throw fail("Expected ':' but found " + describe(i));
        i++;
        space();
        map.put(key, value(depth));
        space();
        char c = peek();
        if (c == ',') {
          i++;
        } else if (c == '}') {
          i++;
          return map;
        } else {
          throw fail("Expected ',' or '}' but found " + describe(i));
        }
      }
    }

    private List<Object> array(int depth) {
      if (depth > MAX_DEPTH) throw fail("JSON nested deeper than " + MAX_DEPTH + " levels");
      i++; // [
      List<Object> list = new ArrayList<>();
      space();
      if (peek() == ']') {
        i++;
        return list;
      }
      while (true) {
        space();
        list.add(value(depth));
        space();
        char c = peek();
        if (c == ',') {
          i++;
        } else if (c == ']') {
          i++;
          return list;
        } else {
          throw fail("Expected ',' or ']' but found " + describe(i));
        }
      }
    }

    private String string() {
      int start = ++i; // opening quote
      StringBuilder sb = null;
      while (true) {
        if (i >= s.length()) throw fail("Unterminated string");
        char c = s.charAt(i);
        if (c == '"') {
          String out = sb == null ? s.substring(start, i) : sb.append(s, start, i).toString();
          i++;
          return out;
        }
        if (c < 0x20) throw fail("Unescaped control character U+" + hex4(c) + " in a string");
        if (c != '\\') {
          i++;
          continue;
        }
        if (sb == null) sb = new StringBuilder();
        sb.append(s, start, i);
        i++;
        if (i >= s.length()) throw fail("Unterminated string");
        char e = s.charAt(i);
        switch (e) {
          case '"':
            sb.append('"');
            break;
          case '\\':
            sb.append('\\');
            break;
          case '/':
            sb.append('/');
            break;
          case 'b':
            sb.append('\b');
            break;
          case 'f':
            sb.append('\f');
            break;
          case 'n':
            sb.append('\n');
            break;
          case 'r':
            sb.append('\r');
            break;
          case 't':
            sb.append('\t');
            break;
          case 'u':
            if (i + 4 >= s.length()) throw fail("Incomplete \\u escape");
            int code = 0;
            for (int k = 1; k <= 4; k++) {
              int d = hexDigit(s.charAt(i + k));
              if (d < 0) {
                i += k;
                throw fail("Invalid hex digit " + describe(i) + " in a \\u escape");
              }
              code = code * 16 + d;
            }
            sb.append((char) code);
            i += 4;
            break;
          default:
            throw fail("Invalid escape \\" + e);
        }
        i++;
        start = i;
      }
    }

    private Object number() {
      int start = i;
      if (peek() == '-') i++;
      if (i >= s.length()) throw fail("Expected a digit after '-'");
      char c = s.charAt(i);
      if (c == '0') {
        i++;
        if (i < s.length() && isDigit(s.charAt(i))) throw fail("Leading zeros are not allowed in a number");
      } else if (c >= '1' && c <= '9') {
        while (i < s.length() && isDigit(s.charAt(i))) i++;
      } else {
        throw fail("Expected a digit but found " + describe(i));
      }
      boolean integral = true;
      if (i < s.length() && s.charAt(i) == '.') {
        integral = false;
        i++;
        if (i >= s.length() || !isDigit(s.charAt(i))) throw fail("Expected a digit after the decimal point");
        while (i < s.length() && isDigit(s.charAt(i))) i++;
      }
      if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
        integral = false;
        i++;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
        if (i >= s.length() || !isDigit(s.charAt(i))) throw fail("Expected a digit in the exponent");
        while (i < s.length() && isDigit(s.charAt(i))) i++;
      }
      String text = s.substring(start, i);
      if (integral) {
        if (text.equals("-0")) return -0.0d;
        if (text.length() <= 18) return Long.parseLong(text);
        BigInteger big = new BigInteger(text);
        return big.bitLength() < 64 ? (Object) big.longValue() : big;
      }
      double d = Double.parseDouble(text);
      if (Double.isInfinite(d)) return new BigDecimal(text);
      return d;
    }

    private Object literal(String word, Object value) {
      if (!s.startsWith(word, i)) throw fail("Unexpected " + describe(i));
      i += word.length();
      return value;
    }

    private void space() {
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') i++;
        else break;
      }
    }

    private char peek() {
      if (i >= s.length()) throw fail("Unexpected end of JSON input");
      return s.charAt(i);
    }

    private String describe(int at) {
      if (at >= s.length()) return "end of input";
      char c = s.charAt(at);
      if (c < 0x20 || c == 0x7f) return "character U+" + hex4(c);
      return "'" + c + "'";
    }

    private JsonException fail(String message) {
      int line = 1;
      int column = 1;
      int end = Math.min(i, s.length());
      for (int k = 0; k < end; k++) {
        if (s.charAt(k) == '\n') {
          line++;
          column = 1;
        } else {
          column++;
        }
      }
      return new JsonException(
          message + " at line " + line + ", column " + column + " (offset " + i + ").", i, line, column);
    }

    private static boolean isDigit(char c) {
      return c >= '0' && c <= '9';
    }

    private static int hexDigit(char c) {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    }
  }

  private static String hex4(int c) {
    String h = Integer.toHexString(c).toUpperCase();
    return "0000".substring(h.length()) + h;
  }

  // ------------------------------------------------------------------------------------------------ writing

  private static final class Writer {
    private final StringBuilder out;
    private final String indent;

    Writer(StringBuilder out, String indent) {
      this.out = out;
      this.indent = indent;
    }

    void value(Object v, int depth) {
      if (depth > MAX_DEPTH) throw new JsonException("Value nested deeper than " + MAX_DEPTH + " levels.", 0, 0, 0);
      if (v instanceof JsonWritable) v = ((JsonWritable) v).toJson();
      if (v == null) {
        out.append("null");
      } else if (v instanceof String || v instanceof Character) {
        string(out, v.toString());
      } else if (v instanceof Boolean) {
        out.append(v.toString());
      } else if (v instanceof Long
          || v instanceof Integer
          || v instanceof Short
          || v instanceof Byte
          || v instanceof BigInteger) {
        out.append(v.toString());
      } else if (v instanceof Double || v instanceof Float) {
        number(((Number) v).doubleValue());
      } else if (v instanceof BigDecimal) {
        out.append(((BigDecimal) v).toString());
      } else if (v instanceof Map) {
        map((Map<?, ?>) v, depth);
      } else if (v instanceof Iterable) {
        List<Object> items = new ArrayList<>();
        for (Object item : (Iterable<?>) v) items.add(item);
        list(items, depth);
      } else if (v.getClass().isArray()) {
        int n = Array.getLength(v);
        List<Object> items = new ArrayList<>(n);
        for (int k = 0; k < n; k++) items.add(Array.get(v, k));
        list(items, depth);
      } else {
        throw new JsonException("Cannot write a " + v.getClass().getName() + " as JSON.", 0, 0, 0);
      }
    }

    private void number(double d) {
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new JsonException("JSON has no " + d + ".", 0, 0, 0);
      }
      if (d == Math.rint(d) && Math.abs(d) < 1e15 && !(d == 0 && 1 / d < 0)) {
        out.append((long) d);
      } else {
        out.append(Double.toString(d));
      }
    }

    private void map(Map<?, ?> map, int depth) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String)) {
          throw new JsonException("JSON object keys must be strings, not " + e.getKey() + ".", 0, 0, 0);
        }
        if (!first) out.append(',');
        first = false;
        newline(depth + 1);
        string(out, (String) e.getKey());
        out.append(indent == null ? ":" : ": ");
        value(e.getValue(), depth + 1);
      }
      if (!first) newline(depth);
      out.append('}');
    }

    private void list(List<Object> items, int depth) {
      out.append('[');
      boolean first = true;
      for (Object item : items) {
        if (!first) out.append(',');
        first = false;
        newline(depth + 1);
        value(item, depth + 1);
      }
      if (!first) newline(depth);
      out.append(']');
    }

    private void newline(int depth) {
      if (indent == null) return;
      out.append('\n');
      for (int k = 0; k < depth; k++) out.append(indent);
    }

    static void string(StringBuilder out, String s) {
      out.append('"');
      for (int k = 0; k < s.length(); k++) {
        char c = s.charAt(k);
        switch (c) {
          case '"':
            out.append("\\\"");
            break;
          case '\\':
            out.append("\\\\");
            break;
          case '\b':
            out.append("\\b");
            break;
          case '\f':
            out.append("\\f");
            break;
          case '\n':
            out.append("\\n");
            break;
          case '\r':
            out.append("\\r");
            break;
          case '\t':
            out.append("\\t");
            break;
          default:
            if (c < 0x20 || c == '\u2028' || c == '\u2029') {
              out.append("\\u").append(hex4(c).toLowerCase());
            } else if (Character.isHighSurrogate(c)
                && k + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(k + 1))) {
              out.append(c).append(s.charAt(++k));
            } else if (Character.isSurrogate(c)) {
              // A lone surrogate cannot be written as UTF-8: keep it as an escape, which JSON allows.
              out.append("\\u").append(hex4(c).toLowerCase());
            } else {
              out.append(c);
            }
        }
      }
      out.append('"');
    }
  }
}
