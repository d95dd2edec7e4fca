package com.tessera.client;

import java.time.Duration;
import java.util.List;

/**
 * 404: nothing at that path, or a template id the key cannot use.
 *
 * <p>A {@link TesseraException}, so a catch of that still catches it.
 */
public class NotFoundException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(
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
