package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTest {
  @Test
  void readsLiteralsAndWhitespace() {
    assertEquals(true, Json.parse("true"));
    assertEquals(false, Json.parse(" \t\r\nfalse\n"));
    assertNull(Json.parse("null"));
    assertEquals("", Json.parse("\"\""));
    assertEquals(List.of(), Json.parse("[ ]"));
    assertEquals(Map.of(), Json.parse("{ }"));
  }

  @Test
  void readsIntegersAsLongAndBigInteger() {
    assertEquals(0L, Json.parse("0"));
    assertEquals(-12L, Json.parse("-12"));
    assertEquals(9007199254740991L, Json.parse("9007199254740991"));
    assertEquals(Long.MAX_VALUE, Json.parse("9223372036854775807"));
    assertEquals(Long.MIN_VALUE, Json.parse("-9223372036854775808"));
    assertEquals(new BigInteger("9223372036854775808"), Json.parse("9223372036854775808"));
    assertEquals(new BigInteger("-123456789012345678901234567890"), Json.parse("-123456789012345678901234567890"));
  }

  @Test
  void readsOtherNumbersAsDouble() {
    assertEquals(1.5d, Json.parse("1.5"));
    assertEquals(-0.25d, Json.parse("-0.25"));
    assertEquals(1000d, Json.parse("1e3"));
    assertEquals(1000d, Json.parse("1E+3"));
    assertEquals(0.012d, Json.parse("1.2e-2"));
    assertEquals(97.5d, Json.parse("97.50"));
    Object negativeZero = Json.parse("-0");
    assertInstanceOf(Double.class, negativeZero);
    assertEquals(Double.doubleToRawLongBits(-0.0d), Double.doubleToRawLongBits((Double) negativeZero));
    assertEquals(new BigDecimal("1e400"), Json.parse("1e400"));
    assertEquals(4.9e-324, Json.parse("4.9e-324"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "01", "-", "+1", "1.", ".5", "1e", "1e+", "--1", "0x10", "NaN", "Infinity", "-Infinity", "1.e3", "1 2", "00"
      })
  void refusesMalformedNumbers(String text) {
    assertThrows(JsonException.class, () -> Json.parse(text), text);
  }

  @Test
  void readsEscapes() {
    assertEquals("\" \\ / \b \f \n \r \t", Json.parse("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\""));
    assertEquals("A\u00e9\u4e2d", Json.parse("\"\\u0041\\u00E9\\u4e2d\""));
    assertEquals("\u0000", Json.parse("\"\\u0000\""));
  }

  @Test
  void readsUnicodeAsIsAndAsSurrogatePairs() {
    assertEquals("café 中文 😀", Json.parse("\"café 中文 😀\""));
    assertEquals("😀", Json.parse("\"\\ud83d\\ude00\""));
    assertEquals("😀".codePointAt(0), ((String) Json.parse("\"\\uD83D\\uDE00\"")).codePointAt(0));
    // A lone surrogate is allowed by the grammar and kept.
    assertEquals("\ud800", Json.parse("\"\\ud800\""));
    byte[] utf8 = "{\"name\":\"Zoë\"}".getBytes(StandardCharsets.UTF_8);
    assertEquals(Map.of("name", "Zoë"), Json.parse(utf8));
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\u١٢٣٤\"", "\"abc", "\"\\", "\"a\nb\"", "\"\t\""})
  void refusesBadStrings(String text) {
    assertThrows(JsonException.class, () -> Json.parse(text), text);
  }

  @Test
  void refusesBytesThatAreNotUtf8() {
    byte[] latin1 = "\"caf\u00e9\"".getBytes(StandardCharsets.ISO_8859_1);
    JsonException e = assertThrows(JsonException.class, () -> Json.parse(latin1));
    assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
  }

  @Test
  void readsNestingInOrder() {
    Object v = Json.parse("{\"b\":[1,{\"c\":[true,null,\"x\"]},[]],\"a\":{\"d\":{}},\"b2\":-1.5}");
    Map<?, ?> m = (Map<?, ?>) v;
    assertEquals(List.of("b", "a", "b2"), new ArrayList<>(m.keySet()));
    List<?> b = (List<?>) m.get("b");
    assertEquals(1L, b.get(0));
    assertEquals(Arrays.asList(true, null, "x"), ((Map<?, ?>) b.get(1)).get("c"));
    assertEquals(List.of(), b.get(2));
    assertEquals(Map.of("d", Map.of()), m.get("a"));
  }

  @Test
  void keepsTheLastOfARepeatedKey() {
    assertEquals(Map.of("a", 2L), Json.parse("{\"a\":1,\"a\":2}"));
  }

  @Test
  void limitsDepth() {
    String ok = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
    assertInstanceOf(List.class, Json.parse(ok));
    String deep = "[".repeat(Json.MAX_DEPTH + 1) + "]".repeat(Json.MAX_DEPTH + 1);
    JsonException e = assertThrows(JsonException.class, () -> Json.parse(deep));
    assertTrue(e.getMessage().contains("deeper"), e.getMessage());
    String deepObjects = "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000);
    assertThrows(JsonException.class, () -> Json.parse(deepObjects));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "[1,]",
        "[1 2]",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{a:1}",
        "{'a':1}",
        "{\"a\":1",
        "[1",
        "]",
        "tru",
        "nul",
        "True",
        "[1] x",
        "{} {}",
        "// comment\n1",
        "\u00a01",
        "{\"a\":undefined}",
        "[,1]"
      })
  void refusesMalformedDocuments(String text) {
    assertThrows(JsonException.class, () -> Json.parse(text), text);
  }

  @Test
  void namesWhereReadingStopped() {
    JsonException e = assertThrows(JsonException.class, () -> Json.parse("{\n  \"a\": [1,\n  2,,]\n}"));
    assertEquals(3, e.line());
    assertEquals(5, e.column());
    assertTrue(e.getMessage().contains("line 3, column 5"), e.getMessage());
    JsonException end = assertThrows(JsonException.class, () -> Json.parse("[1, 2"));
    assertTrue(end.getMessage().contains("end"), end.getMessage());
  }

  @Test
  void ignoresAByteOrderMarkAtTheStartOnly() {
    assertEquals(1L, Json.parse("\uFEFF1"));
    assertThrows(JsonException.class, () -> Json.parse("[\uFEFF1]"));
  }

  @Test
  void writesEveryKindOfValue() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("s", "x");
    m.put("i", 3);
    m.put("l", 9007199254740993L);
    m.put("d", 1.5);
    m.put("whole", 97.0);
    m.put("big", new BigInteger("123456789012345678901234567890"));
    m.put("dec", new BigDecimal("0.10"));
    m.put("t", true);
    m.put("n", null);
    m.put("list", List.of(1, "two"));
    m.put("array", new int[] {1, 2});
    m.put("empty", Map.of());
    assertEquals(
        "{\"s\":\"x\",\"i\":3,\"l\":9007199254740993,\"d\":1.5,\"whole\":97,"
            + "\"big\":123456789012345678901234567890,\"dec\":0.10,\"t\":true,\"n\":null,\"list\":[1,\"two\"],"
            + "\"array\":[1,2],\"empty\":{}}",
        Json.write(m));
  }

  @Test
  void writesEscapes() {
    assertEquals(
        "\"\\\" \\\\ / \\b \\f \\n \\r \\t \\u0001 \\u001f\"",
        Json.write("\" \\ / \b \f \n \r \t \u0001 \u001f"));
    assertEquals("\"café 😀 \\u2028\"", Json.write("café 😀 \u2028"));
    assertEquals("\"\\ud800x\"", Json.write("\ud800x"));
    assertEquals("\"\\udc00\"", Json.write("\udc00"));
  }

  @Test
  void refusesWhatJsonCannotHold() {
    assertThrows(JsonException.class, () -> Json.write(Double.NaN));
    assertThrows(JsonException.class, () -> Json.write(Double.POSITIVE_INFINITY));
    assertThrows(JsonException.class, () -> Json.write(Map.of(1, "a")));
    assertThrows(JsonException.class, () -> Json.write(new Object()));
    List<Object> cycle = new ArrayList<>();
    cycle.add(cycle);
    assertThrows(JsonException.class, () -> Json.write(cycle));
  }

  @Test
  void roundTrips() {
    String text =
        "{\"requestId\":\"a\",\"identities\":[{\"score\":97,\"matchedOn\":[\"email\"],\"id\":7,"
            + "\"name\":\"Zoë \\\"Z\\\" Ng\\n\",\"ratio\":0.125,\"neg\":-3,\"nested\":{\"x\":[[],{},null,false]}}]}";
    Object parsed = Json.parse(text);
    assertEquals(text, Json.write(parsed));
    assertEquals(parsed, Json.parse(Json.pretty(parsed)));
  }

  @Test
  void writesIndentedJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("a", List.of(1, 2));
    m.put("b", Map.of());
    m.put("c", List.of());
    assertEquals("{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": []\n}", Json.pretty(m));
  }

  @Test
  void writesJsonWritableValues() {
    JsonWritable w = () -> Map.of("k", List.of("v"));
    assertEquals("[{\"k\":[\"v\"]}]", Json.write(List.of(w)));
    assertEquals("\"q\\\"\"", Json.quote("q\""));
  }

  @Test
  void parseObjectRefusesOtherValues() {
    assertEquals(Map.of("a", 1L), Json.parseObject("{\"a\":1}"));
    assertThrows(JsonException.class, () -> Json.parseObject("[1]"));
  }
}
