package com.tessera.client;

/** No reply came within the client's timeout (code {@code timeout}, status 0). */
public final class TesseraTimeoutException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public TesseraTimeoutException(String message, Throwable cause) {
    super(0, TIMEOUT, message, null, null, null, null, cause);
  }
}
