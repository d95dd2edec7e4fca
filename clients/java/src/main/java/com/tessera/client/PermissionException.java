package com.tessera.client;

import java.time.Duration;
import java.util.List;

/**
 * 403: the key may not make this call (its scope, its IP allow list, a suspended organization).
 *
 * <p>A {@link TesseraException}, so a catch of that still catches it.
 */
public class PermissionException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public PermissionException(
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
