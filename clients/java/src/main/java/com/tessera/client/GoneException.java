package com.tessera.client;

import java.time.Duration;
import java.util.List;

/**
 * 410: what was asked for is no longer kept, such as a bulk job's result past its keeping time ({@code
 * JOB_RESULT_DAYS} after the job ended).
 *
 * <p>A {@link TesseraException}, so a catch of that still catches it.
 */
public class GoneException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public GoneException(
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
