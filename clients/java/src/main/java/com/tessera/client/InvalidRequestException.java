package com.tessera.client;

import java.time.Duration;
import java.util.List;

/**
 * The request was refused as malformed: 400 ({@code validation_failed} with {@link #fields()}, or {@code
 * bad_request}) or 422 ({@code unprocessable}: an Idempotency-Key reused for another request, a template that
 * failed on the input).
 *
 * <p>A {@link TesseraException}, so a catch of that still catches it.
 */
public class InvalidRequestException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public InvalidRequestException(
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
