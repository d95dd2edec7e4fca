package com.tessera.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A call that failed: the server refused it (status 400 and above, its body {@code {error, code, requestId,
 * fields}}), or no reply came (status 0: {@link TesseraConnectionException}, and {@link TesseraTimeoutException}).
 *
 * <p>Each kind of refusal has a subclass, so it can be caught alone: {@link InvalidRequestException} (400, 422),
 * {@link AuthenticationException} (401), {@link PaymentRequiredException} (402), {@link PermissionException} (403),
 * {@link NotFoundException} (404), {@link ConflictException} (409), {@link GoneException} (410), {@link
 * RateLimitException} (429) and {@link ServerException} (500 and above). Other statuses (405, 413, 415, 451) are a
 * plain {@code TesseraException}.
 *
 * <p>{@link #getMessage()} is the server's {@code error} text, safe to show to a person; when the body is not the
 * API's JSON, the body as plain text, else the status's standard name (Unauthorized, Forbidden, ...), else the status
 * code.
 */
public class TesseraException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** {@link #code()} of a call that got no reply in time. */
  public static final String TIMEOUT = "timeout";
  /** {@link #code()} of a call that could not reach the server or lost its connection. */
  public static final String NETWORK = "network";
  /** {@link #code()} of a call whose thread was interrupted (the interrupt flag is set again). */
  public static final String INTERRUPTED = "interrupted";

  private final int status;
  private final String code;
  private final String requestId;
  private final List<FieldError> fields;
  private final Duration retryAfter;
  private final transient Headers headers;

  public TesseraException(
      int status,
      String code,
      String message,
      String requestId,
      List<FieldError> fields,
      Duration retryAfter,
      Headers headers,
      Throwable cause) {
    super(message, cause);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.fields = fields == null ? List.of() : List.copyOf(fields);
    this.retryAfter = retryAfter;
    this.headers = headers == null ? new Headers(Map.of()) : headers;
  }

  /** The HTTP status, or 0 when no reply came. */
  public int status() {
    return status;
  }

  /**
   * What went wrong, for programs: the server's code ({@code bad_request}, {@code validation_failed}, {@code
   * unauthorized}, {@code payment_required}, {@code forbidden}, {@code not_found}, {@code conflict}, {@code
   * unprocessable}, {@code rate_limited}, {@code unavailable}, ...), or {@link #TIMEOUT}, {@link #NETWORK} or {@link
   * #INTERRUPTED} when no reply came.
   */
  public String code() {
    return code;
  }

  /** The request's id (the body's {@code requestId}, else the X-Request-Id header), or null when no reply came. */
  public String requestId() {
    return requestId;
  }

  /** With {@code validation_failed}: each field that is wrong; otherwise empty. */
  public List<FieldError> fields() {
    return fields;
  }

  /** The reply's Retry-After (429, 503), or null. */
  public Duration retryAfter() {
    return retryAfter;
  }

  /** The reply's headers (empty when no reply came). */
  public Headers headers() {
    return headers;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(getClass().getName()).append(": ");
    if (status > 0) sb.append(status).append(' ');
    sb.append(code).append(": ").append(getMessage());
    if (requestId != null) sb.append(" (request ").append(requestId).append(')');
    return sb.toString();
  }

  /** The exception for an error reply: its status, headers and body. */
  static TesseraException fromReply(int status, Headers headers, byte[] body, Duration retryAfter) {
    String requestId = headers.first("X-Request-Id");
    String code = null;
    String message = null;
    List<FieldError> fields = new ArrayList<>();
    Object parsed = null;
    if (body != null && body.length > 0) {
      try {
        parsed = Json.parse(body);
      } catch (JsonException e) {
        parsed = null;
      }
    }
    if (parsed instanceof Map) {
      Map<?, ?> map = (Map<?, ?>) parsed;
      if (map.get("error") instanceof String) message = (String) map.get("error");
      if (map.get("code") instanceof String) code = (String) map.get("code");
      if (map.get("requestId") instanceof String) requestId = (String) map.get("requestId");
      if (map.get("fields") instanceof List) {
        for (Object f : (List<?>) map.get("fields")) {
          if (!(f instanceof Map)) continue;
          Map<?, ?> fm = (Map<?, ?>) f;
          fields.add(
              new FieldError(
                  fm.get("path") instanceof String ? (String) fm.get("path") : "",
                  fm.get("message") instanceof String ? (String) fm.get("message") : "",
                  fm.get("line") instanceof Long ? ((Long) fm.get("line")).intValue() : null,
                  fm.get("column") instanceof Long ? ((Long) fm.get("column")).intValue() : null));
        }
      }
    } else if (body != null && body.length > 0) {
      String text = new String(body, java.nio.charset.StandardCharsets.UTF_8).strip();
      if (!text.isEmpty() && parsed == null) message = text.length() > 500 ? text.substring(0, 500) + "…" : text;
    }
    if (message == null) message = standardName(status);
    if (message == null) message = "HTTP " + status;
    if (code == null) code = standardCode(status);
    return of(status, code, message, requestId, fields, retryAfter, headers);
  }

  /** The subclass for the status. */
  private static TesseraException of(
      int status,
      String code,
      String message,
      String requestId,
      List<FieldError> fields,
      Duration retryAfter,
      Headers headers) {
    switch (status) {
      case 400:
      case 422:
        return new InvalidRequestException(status, code, message, requestId, fields, retryAfter, headers, null);
      case 401:
        return new AuthenticationException(status, code, message, requestId, fields, retryAfter, headers, null);
      case 402:
        return new PaymentRequiredException(status, code, message, requestId, fields, retryAfter, headers, null);
      case 403:
        return new PermissionException(status, code, message, requestId, fields, retryAfter, headers, null);
      case 404:
        return new NotFoundException(status, code, message, requestId, fields, retryAfter, headers, null);
      case 409:
        return new ConflictException(status, code, message, requestId, fields, retryAfter, headers, null);
      case 410:
        return new GoneException(status, code, message, requestId, fields, retryAfter, headers, null);
      case 429:
        return new RateLimitException(status, code, message, requestId, fields, retryAfter, headers, null);
      default:
        if (status >= 500) {
          return new ServerException(status, code, message, requestId, fields, retryAfter, headers, null);
        }
        return new TesseraException(status, code, message, requestId, fields, retryAfter, headers, null);
    }
  }

  static String standardName(int status) {
    switch (status) {
      case 400:
        return "Bad Request";
      case 401:
        return "Unauthorized";
      case 402:
        return "Payment Required";
      case 403:
        return "Forbidden";
      case 404:
        return "Not Found";
      case 405:
        return "Method Not Allowed";
      case 408:
        return "Request Timeout";
      case 409:
        return "Conflict";
      case 410:
        return "Gone";
      case 413:
        return "Payload Too Large";
      case 415:
        return "Unsupported Media Type";
      case 422:
        return "Unprocessable Entity";
      case 429:
        return "Too Many Requests";
      case 451:
        return "Unavailable For Legal Reasons";
      case 500:
        return "Internal Server Error";
      case 502:
        return "Bad Gateway";
      case 503:
        return "Service Unavailable";
      case 504:
        return "Gateway Timeout";
      default:
        return null;
    }
  }

  /** The API's code for a status, for replies that carry none (from a proxy, say). */
  static String standardCode(int status) {
    switch (status) {
      case 400:
        return "bad_request";
      case 401:
        return "unauthorized";
      case 402:
        return "payment_required";
      case 403:
        return "forbidden";
      case 404:
        return "not_found";
      case 405:
        return "method_not_allowed";
      case 409:
        return "conflict";
      case 410:
        return "gone";
      case 413:
        return "payload_too_large";
      case 415:
        return "unsupported_media_type";
      case 422:
        return "unprocessable";
      case 429:
        return "rate_limited";
      case 451:
        return "legal_notice";
      case 500:
        return "internal";
      case 503:
        return "unavailable";
      default:
        return "http_" + status;
    }
  }
}
