package com.tessera.client;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * A CSV reply, streamed: the body is read from the connection as you read it, never held whole in memory. Read it
 * one way only: as bytes ({@link #stream()}), as text ({@link #reader()}, {@link #lines()}), as records ({@link
 * #rows()}), or copy it ({@link #transferTo(OutputStream)}, {@link #saveTo(Path)}). Close it when done (try with
 * resources): closing early stops the transfer.
 *
 * <p>For an upload (PUT) the upload goes on while you read, and the server reads more rows only as you read the
 * reply: keep reading until the end, or close.
 */
public final class CsvReply implements Closeable {
  private final ResponseInfo info;
  private final InputStream body;
  private boolean taken;

  CsvReply(ResponseInfo info, InputStream body) {
    this.info = info;
    this.body = body;
  }

  /** Status, headers, rate limit, idempotency and attempts of the reply. */
  public ResponseInfo info() {
    return info;
  }

  /** The request's id (X-Request-Id). */
  public String requestId() {
    return info.requestId();
  }

  /** The body as bytes (decompressed). */
  public InputStream stream() {
    take();
    return body;
  }

  /** The body as UTF-8 text. */
  public BufferedReader reader() {
    return new BufferedReader(new InputStreamReader(stream(), StandardCharsets.UTF_8), 65536);
  }

  /**
   * The body's lines, as they arrive (CRLF or LF removed). A quoted cell may itself hold a line break, so use {@link
   * #rows()} to read records; reading fails with {@link UncheckedIOException}.
   */
  public Stream<String> lines() {
    return reader().lines();
  }

  /** The body's records, as they arrive: the header first, then one list of cells per row. */
  public CsvReader rows() {
    return new CsvReader(reader());
  }

  /** Copies the rest of the body to {@code out}; returns the bytes copied. */
  public long transferTo(OutputStream out) throws IOException {
    try (InputStream in = stream()) {
      return in.transferTo(out);
    }
  }

  /** Writes the body to a file (replacing it); returns the bytes written. */
  public long saveTo(Path file) throws IOException {
    try (InputStream in = stream()) {
      return Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** The whole body as text: only for replies known to be small. */
  public String text() throws IOException {
    try (InputStream in = stream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private void take() {
    if (taken) throw new IllegalStateException("The reply's body has already been taken.");
    taken = true;
  }

  /** Stops reading and releases the connection. */
  @Override
  public void close() {
    try {
      body.close();
    } catch (IOException e) {
      // nothing more to release
    }
  }
}
