package com.tessera.client;

/** JSON that cannot be read (malformed text) or a value that cannot be written as JSON. */
public final class JsonException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int offset;
  private final int line;
  private final int column;

  /** A failure at {@code offset} (0-based), {@code line} and {@code column} (1-based; 0 when writing). */
  public JsonException(String message, int offset, int line, int column) {
    super(message);
    this.offset = offset;
    this.line = line;
    this.column = column;
  }

  /** Where reading stopped, counted in UTF-16 characters from the start of the text. */
  public int offset() {
    return offset;
  }

  /** The line (1-based) where reading stopped; 0 for a value that cannot be written. */
  public int line() {
    return line;
  }

  /** The column (1-based) where reading stopped; 0 for a value that cannot be written. */
  public int column() {
    return column;
  }
}
