package com.tessera.client;

import java.time.Duration;
import java.util.List;

/**
 * 409: a request under the same Idempotency-Key is still running (try again once it is done); a bulk job's result
 * asked for before the job has ended, or a job cancelled once it has ended.
 *
 * <p>A {@link TesseraException}, so a catch of that still catches it.
 */
public class ConflictException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public ConflictException(
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
