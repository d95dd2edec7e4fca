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

  /** The reply's {@code Content-Encoding} (gzip, deflate) as received, or null when it was not compressed. */
  public String contentEncoding() {
    return headers.first("Content-Encoding");
  }
}
