package com.tessera.client;

import java.time.Duration;
import java.util.List;

/**
 * 429: the key's rate limit or concurrency is reached; {@link #retryAfter()} says when to try again. Retried
 * by the client's {@link RetryPolicy} before it is thrown.
 *
 * <p>A {@link TesseraException}, so a catch of that still catches it.
 */
public class RateLimitException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public RateLimitException(
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
