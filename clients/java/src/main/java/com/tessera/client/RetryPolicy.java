package com.tessera.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When and how long the client waits before sending a refused request again, immutable: each method returns a
 * changed copy.
 *
 * <p>By default a reply of 429 (rate limited) or 503 (unavailable) is retried up to 3 times. A reply with {@code
 * Retry-After} is retried exactly that long after (seconds or an HTTP date), as the server says a retry from then on
 * is served; one asking for longer than {@link #maxRetryAfter()} (default 2 minutes) is not retried. Without it the
 * client waits an exponential backoff: {@code baseDelay * 2^(retry-1)}, at most {@code maxDelay}, half of it fixed
 * and half random (so many clients do not retry in step). A batch or upload keeps its Idempotency-Key across retries,
 * so a retry is never run or charged twice.
 *
 * <p>A call that got no reply (connection refused or reset, a timeout before the reply) is retried with the same
 * backoff where a repeat is safe: a GET, or a batch or upload with an Idempotency-Key (sent by default), whose repeat
 * the server answers with the first reply. {@link #networkErrors(boolean) networkErrors(false)} turns that off.
 */
public final class RetryPolicy {
  private static final RetryPolicy DEFAULTS =
      new RetryPolicy(
          3, Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofMinutes(2), Set.of(429, 503), null, true);

  private final int maxRetries;
  private final Duration baseDelay;
  private final Duration maxDelay;
  private final Duration maxRetryAfter;
  private final Set<Integer> statuses;
  private final RetryListener listener;
  private final boolean networkErrors;

  private RetryPolicy(
      int maxRetries,
      Duration baseDelay,
      Duration maxDelay,
      Duration maxRetryAfter,
      Set<Integer> statuses,
      RetryListener listener,
      boolean networkErrors) {
    this.maxRetries = maxRetries;
    this.baseDelay = baseDelay;
    this.maxDelay = maxDelay;
    this.maxRetryAfter = maxRetryAfter;
    this.statuses = statuses;
    this.listener = listener;
    this.networkErrors = networkErrors;
  }

  /** 3 retries on 429 and 503; backoff from 500 ms to 30 s; Retry-After honoured up to 2 minutes. */
  public static RetryPolicy defaults() {
    return DEFAULTS;
  }

  /** Never retry. */
  public static RetryPolicy none() {
    return DEFAULTS.maxRetries(0);
  }

  /** Retries after the first attempt (0: none). */
  public RetryPolicy maxRetries(int retries) {
    if (retries < 0) throw new IllegalArgumentException("maxRetries is 0 or more.");
    return new RetryPolicy(retries, baseDelay, maxDelay, maxRetryAfter, statuses, listener, networkErrors);
  }

  /** The first backoff without Retry-After (doubled each retry). */
  public RetryPolicy baseDelay(Duration delay) {
    return new RetryPolicy(
        maxRetries, positive(delay, "baseDelay"), maxDelay, maxRetryAfter, statuses, listener, networkErrors);
  }

  /** The longest backoff without Retry-After. */
  public RetryPolicy maxDelay(Duration delay) {
    return new RetryPolicy(
        maxRetries, baseDelay, positive(delay, "maxDelay"), maxRetryAfter, statuses, listener, networkErrors);
  }

  /** The longest Retry-After the client waits for; a reply asking for longer is thrown at once. */
  public RetryPolicy maxRetryAfter(Duration delay) {
    return new RetryPolicy(
        maxRetries, baseDelay, maxDelay, positive(delay, "maxRetryAfter"), statuses, listener, networkErrors);
  }

  /** The statuses that are retried (default 429 and 503). */
  public RetryPolicy statuses(Set<Integer> retried) {
    return new RetryPolicy(
        maxRetries, baseDelay, maxDelay, maxRetryAfter, Set.copyOf(retried), listener, networkErrors);
  }

  /** Told before each wait (for logging or metrics); null for none. */
  public RetryPolicy listener(RetryListener onRetry) {
    return new RetryPolicy(maxRetries, baseDelay, maxDelay, maxRetryAfter, statuses, onRetry, networkErrors);
  }

  /** Whether a call that got no reply is retried where that is safe (default true). */
  public RetryPolicy networkErrors(boolean retried) {
    return new RetryPolicy(maxRetries, baseDelay, maxDelay, maxRetryAfter, statuses, listener, retried);
  }

  public boolean networkErrors() {
    return networkErrors;
  }

  public int maxRetries() {
    return maxRetries;
  }

  public Duration baseDelay() {
    return baseDelay;
  }

  public Duration maxDelay() {
    return maxDelay;
  }

  public Duration maxRetryAfter() {
    return maxRetryAfter;
  }

  public Set<Integer> statuses() {
    return statuses;
  }

  public RetryListener listener() {
    return listener;
  }

  /** The backoff before retry {@code retry} (1-based) when the reply gave no Retry-After. */
  public Duration backoff(int retry) {
    long base = baseDelay.toMillis();
    long cap = maxDelay.toMillis();
    long full = retry >= 31 ? cap : Math.min(cap, base << Math.max(0, retry - 1));
    long half = full / 2;
    return Duration.ofMillis(full - half + (half > 0 ? ThreadLocalRandom.current().nextLong(half + 1) : 0));
  }

  private static Duration positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative()) throw new IllegalArgumentException(name + " must not be negative.");
    return d;
  }

  /** Told before each retry. */
  @FunctionalInterface
  public interface RetryListener {
    void onRetry(RetryEvent event);
  }

  /**
   * A retry about to happen.
   *
   * @param attempt the attempt that was refused (1 for the first)
   * @param status its status (429, 503, ...), or 0 when no reply came
   * @param requestId its request id, or null
   * @param delay how long the client waits before the next attempt
   * @param fromRetryAfter true when the delay is the reply's Retry-After, false for a backoff
   * @param error the refusal
   */
  public record RetryEvent(
      int attempt, int status, String requestId, Duration delay, boolean fromRetryAfter, TesseraException error) {}
}
