package com.tessera.client;

import java.time.Duration;
import java.util.List;

/**
 * 402: the organization's plan or balance does not cover the call.
 *
 * <p>A {@link TesseraException}, so a catch of that still catches it.
 */
public class PaymentRequiredException extends TesseraException {
  private static final long serialVersionUID = 1L;

  public PaymentRequiredException(
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
