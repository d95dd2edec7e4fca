package com.tessera.client;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Reads CSV (RFC 4180) one record at a time, as it streams: fields separated by commas, records ended by CRLF or LF,
 * a quoted field holding commas, line breaks and doubled quotes. A byte-order mark at the start is dropped. The
 * server's replies are written this way (csv-stringify, docs/lookups.md).
 *
 * <p>Iterating throws {@link UncheckedIOException} when reading fails or the text ends inside a quoted field (a reply
 * cut short).
 */
public final class CsvReader implements Iterator<List<String>>, Iterable<List<String>>, Closeable {
  private final Reader in;
  private boolean started;
  private boolean done;
  private List<String> next;
  private long records;

  public CsvReader(Reader in) {
    this.in = in;
  }

  /**
   * A cell of a CSV reply without the server's formula guard: the leading apostrophe it adds before a cell beginning
   * with {@code = + - @}, a tab or a carriage return, so spreadsheets show it as text (docs/lookups.md).
   */
  public static String unguard(String cell) {
    if (cell != null && cell.length() >= 2 && cell.charAt(0) == '\'') {
      char c = cell.charAt(1);
      if (c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r') return cell.substring(1);
    }
    return cell;
  }

  /** The next record, or null at the end. */
  public List<String> read() throws IOException {
    if (next != null) {
      List<String> r = next;
      next = null;
      return r;
    }
    return parse();
  }

  /** Records read so far. */
  public long count() {
    return records;
  }

  private int read1() throws IOException {
    int c = in.read();
    if (!started) {
      started = true;
      if (c == 0xFEFF) c = in.read();
    }
    return c;
  }

  private int pushed = -2;

  private int nextChar() throws IOException {
    if (pushed != -2) {
      int c = pushed;
      pushed = -2;
      return c;
    }
    return read1();
  }

  private List<String> parse() throws IOException {
    if (done) return null;
    int c = nextChar();
    if (c == -1) {
      done = true;
      return null;
    }
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean afterQuote = false;
    while (true) {
      if (quoted) {
        if (c == -1) throw new EOFException("The CSV ended inside a quoted field (record " + (records + 1) + ").");
        if (c == '"') {
          int d = nextChar();
          if (d == '"') {
            field.append('"');
          } else {
            quoted = false;
            afterQuote = true;
            c = d;
            continue;
          }
        } else {
          field.append((char) c);
        }
      } else if (c == ',') {
        fields.add(field.toString());
        field.setLength(0);
        afterQuote = false;
      } else if (c == '\n' || c == -1) {
        break;
      } else if (c == '\r') {
        int d = nextChar();
        if (d != '\n') pushed = d;
        break;
      } else if (c == '"' && field.length() == 0 && !afterQuote) {
        quoted = true;
      } else {
        field.append((char) c);
      }
      c = nextChar();
    }
    fields.add(field.toString());
    records++;
    if (c == -1) done = true;
    return fields;
  }

  @Override
  public boolean hasNext() {
    if (next != null) return true;
    try {
      next = parse();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return next != null;
  }

  @Override
  public List<String> next() {
    if (!hasNext()) throw new NoSuchElementException();
    List<String> r = next;
    next = null;
    return r;
  }

  @Override
  public Iterator<List<String>> iterator() {
    return this;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
