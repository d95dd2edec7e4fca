package com.tessera.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvReaderTest {
  private static List<List<String>> read(String text) {
    List<List<String>> rows = new ArrayList<>();
    new CsvReader(new StringReader(text)).forEach(rows::add);
    return rows;
  }

  @Test
  void readsRecordsEndedByCrlfOrLf() {
    assertEquals(
        List.of(List.of("a", "b"), List.of("1", ""), List.of("", "2")), read("a,b\r\n1,\n,2\r\n"));
    assertEquals(List.of(List.of("a")), read("a"));
    assertEquals(List.of(), read(""));
  }

  @Test
  void readsQuotedFields() {
    assertEquals(
        List.of(List.of("say \"hi\"", "a,b", "line\r\nbreak", "")),
        read("\"say \"\"hi\"\"\",\"a,b\",\"line\r\nbreak\",\"\"\r\n"));
  }

  @Test
  void dropsAByteOrderMark() {
    assertEquals(List.of(List.of("email"), List.of("x")), read("\uFEFFemail\nx\n"));
  }

  @Test
  void failsOnAQuotedFieldLeftOpen() {
    CsvReader r = new CsvReader(new StringReader("a\n\"open,"));
    assertEquals(List.of("a"), r.next());
    assertThrows(UncheckedIOException.class, r::hasNext);
  }

  @Test
  void readsOneRecordAtATime() throws Exception {
    CsvReader r = new CsvReader(new StringReader("h\n1\n2\n"));
    assertEquals(List.of("h"), r.read());
    assertEquals(List.of("1"), r.read());
    assertEquals(2, r.count());
    assertEquals(List.of("2"), r.read());
    assertNull(r.read());
    assertFalse(r.hasNext());
  }

  @Test
  void removesTheFormulaGuard() {
    assertEquals("=HYPERLINK(1)", CsvReader.unguard("'=HYPERLINK(1)"));
    assertEquals("+1", CsvReader.unguard("'+1"));
    assertEquals("-x", CsvReader.unguard("'-x"));
    assertEquals("@x", CsvReader.unguard("'@x"));
    assertEquals("\tx", CsvReader.unguard("'\tx"));
    assertEquals("'quoted'", CsvReader.unguard("'quoted'"));
    assertEquals("'", CsvReader.unguard("'"));
    assertEquals("+14155550123", CsvReader.unguard("+14155550123"));
    assertNull(CsvReader.unguard(null));
  }
}
