package com.tessera.client;

/**
 * A webhook delivery that Tessera did not sign with the given secret just now ({@link Webhooks#verify}): refuse it,
 * answering 400. The message says which check failed and never holds the secret or the body.
 */
public final class WebhookVerificationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failed check, named by {@code message}. */
  public WebhookVerificationException(String message) {
    super(message);
  }
}
