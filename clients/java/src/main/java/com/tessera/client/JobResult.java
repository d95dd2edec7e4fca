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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A bulk job's result, streamed as it is downloaded ({@code GET /v2/jobs/{id}/result}): CSV, byte for byte what an
 * upload would have answered, or JSON lines, one object a row ({@code line}, {@code input}, {@code identities},
 * {@code error}). Never held whole in memory. Read it one way only: as bytes ({@link #stream()}), as lines ({@link
 * #lines()}), as CSV records ({@link #rows()}), or copy it ({@link #transferTo(OutputStream)}, {@link #saveTo(Path)}).
 * Close it when done (try with resources): closing early stops the download.
 */
public final class JobResult implements Closeable {
  private static final Pattern FILENAME = Pattern.compile("filename=\"([^\"]*)\"");

  private final ResponseInfo info;
  private final InputStream body;
  private boolean taken;

  JobResult(ResponseInfo info, InputStream body) {
    this.info = info;
    this.body = body;
  }

  /** Status, headers and attempts of the reply. */
  public ResponseInfo info() {
    return info;
  }

  /** {@code csv} or {@code jsonl}, from the reply's content type. */
  public String format() {
    String type = info.headers().first("Content-Type");
    return type != null && (type.contains("ndjson") || type.contains("jsonl")) ? "jsonl" : "csv";
  }

  /** The file name the server suggests ({@code job_….csv}), or null. */
  public String fileName() {
    String disposition = info.headers().first("Content-Disposition");
    if (disposition == null) return null;
    Matcher m = FILENAME.matcher(disposition);
    return m.find() ? m.group(1) : null;
  }

  /** The result as bytes (decompressed), as they arrive. */
  public InputStream stream() {
    if (taken) throw new IllegalStateException("The job's result has already been taken.");
    taken = true;
    return body;
  }

  /** The result's lines as they arrive (CRLF or LF removed): JSON lines, or CSV lines; reading fails unchecked. */
  public Stream<String> lines() {
    return new BufferedReader(new InputStreamReader(stream(), StandardCharsets.UTF_8), 65536).lines();
  }

  /** A CSV result's records, as they arrive: the header first, then one list of cells per row. */
  public CsvReader rows() {
    if (!"csv".equals(format())) throw new IllegalStateException("rows() reads a csv result; this one is jsonl.");
    return new CsvReader(new BufferedReader(new InputStreamReader(stream(), StandardCharsets.UTF_8), 65536));
  }

  /** Copies the rest of the result to {@code out}; returns the bytes copied. */
  public long transferTo(OutputStream out) throws IOException {
    try (InputStream in = stream()) {
      return in.transferTo(out);
    }
  }

  /**
   * Writes the result to a file (replacing it) as it arrives; returns the bytes written. A download cut short
   * removes the part written, and throws.
   */
  public long saveTo(Path file) throws IOException {
    try (InputStream in = stream()) {
      return Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | UncheckedIOException | TesseraException e) {
      Files.deleteIfExists(file);
      throw e;
    }
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
