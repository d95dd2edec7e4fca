package com.tessera.client;

/**
 * No reply came: the server could not be reached, or the connection broke before the reply (code {@code network},
 * status 0), or the reply did not come in time ({@link TesseraTimeoutException}, code {@code timeout}). Where a repeat
 * is safe (a GET, or a batch or upload with an Idempotency-Key) the client's {@link RetryPolicy} has retried it
 * before it is thrown.
 *
 * <p>A {@link TesseraException}, so a catch of that still catches it.
 */
public class TesseraConnectionException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public TesseraConnectionException(String code, String message, Throwable cause) {
    super(0, code, message, null, null, null, null, cause);
  }
}
