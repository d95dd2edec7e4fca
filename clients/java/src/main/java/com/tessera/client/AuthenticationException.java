package com.tessera.client;

import java.time.Duration;
import java.util.List;

/**
 * 401: the key is missing, unknown, revoked, or a signed or legacy token is malformed or out of date.
 *
 * <p>A {@link TesseraException}, so a catch of that still catches it.
 */
public class AuthenticationException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public AuthenticationException(
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
