package com.tessera.client;

import java.time.Duration;
import java.util.List;

/**
 * 500 and above: the server failed ({@code internal}) or is unavailable ({@code unavailable}, 503, retried by
 * the client's {@link RetryPolicy} before it is thrown).
 *
 * <p>A {@link TesseraException}, so a catch of that still catches it.
 */
public class ServerException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public ServerException(
      int status,
      String code,
      String message,
      String requestId,
      List<FieldError> fields,
      Duration retryAfter,
      Headers headers,
      Throwable cause) {
    super(status, code, message, requestId, fields, retryAfter, headers, cause);
  }
}
