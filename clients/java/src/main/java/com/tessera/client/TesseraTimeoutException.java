package com.tessera.client;

/** No reply came within the client's timeout (code {@code timeout}, status 0): a {@link TesseraConnectionException}. */
public final class TesseraTimeoutException extends TesseraConnectionException {
  private static final long serialVersionUID = 1L;

  public TesseraTimeoutException(String message, Throwable cause) {
    super(TIMEOUT, message, cause);
  }
}
