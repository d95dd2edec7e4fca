package com.tessera.client;

/**
 * What a reply said besides its body.
 *
 * @param status the HTTP status
 * @param requestId the request's id ({@code X-Request-Id}): quote it when asking about a call
 * @param headers every header of the reply
 * @param rateLimit the rate limit headers, or null when no limit applies
 * @param replayed true when this is the kept reply to an earlier request with the same Idempotency-Key
 *     ({@code Idempotent-Replayed: true}): it was neither run nor charged again
 * @param idempotencyKey the Idempotency-Key sent (POST and PUT), or null
 * @param attempts how many times the request was sent (more than 1 after retries on 429 or 503)
 */
public record ResponseInfo(
    int status,
    String requestId,
    Headers headers,
    RateLimit rateLimit,
    boolean replayed,
    String idempotencyKey,
    int attempts) {

  static ResponseInfo of(int status, Headers headers, String idempotencyKey, int attempts) {
    return new ResponseInfo(
        status,
        headers.first("X-Request-Id"),
        headers,
        RateLimit.of(headers),
        "true".equalsIgnoreCase(headers.first("Idempotent-Replayed")),
        idempotencyKey,
        attempts);
  }

  /**
   * What a lookup answered whole cost ({@code X-Call-Cost}), in USD: zero with a test key; null where not sent (a
   * streamed CSV reply, a replay, an error).
   */
  public java.math.BigDecimal callCost() {
    return dollars(headers.first("X-Call-Cost"));
  }

  /**
   * What is left of the organization's monthly limit after the call ({@code X-Monthly-Allowance-Remaining}), in USD,
   * as the answering server process last knew its spend (so it may be slightly high under load); null without a
   * monthly limit and with a test key.
   */
  public java.math.BigDecimal monthlyAllowanceRemaining() {
    return dollars(headers.first("X-Monthly-Allowance-Remaining"));
  }

  private static java.math.BigDecimal dollars(String value) {
    if (value == null || value.isBlank()) return null;
    try {
      return new java.math.BigDecimal(value.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The reply's {@code Content-Encoding} (gzip, deflate) as received, or null when it was not compressed. */
  public String contentEncoding() {
    return headers.first("Content-Encoding");
  }
}
