/// <reference types="node" />
/**
 * Standard Webhooks signatures (issue 33, decision 0066), one implementation for the server that signs, the tests
 * that check deliveries and any Node receiver: `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), the
 * key being the base64-decoded secret after `whsec_`. Uses Node's crypto, so the console never imports this file.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_HEADERS, WEBHOOK_LIMITS, WEBHOOK_SECRET_PREFIX, type WebhookEvent } from './webhooks';

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** The HMAC key of a secret, given with or without its `whsec_` prefix. */
export function webhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('The signing secret is empty or not base64.');
  return key;
}

type Body = string | Uint8Array;

function hmac(key: Buffer, id: string, timestamp: number, body: Body): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

/** One signature, `v1,{base64}`, of a message's id, the attempt's timestamp (unix seconds) and the exact body. */
export function webhookSignature(secret: string, id: string, timestamp: number, body: Body): string {
  return `v1,${hmac(webhookKey(secret), id, timestamp, body).toString('base64')}`;
}

/** The webhook-signature header: a signature per secret (the current one first), space separated. */
export function signWebhook(secrets: readonly string[], id: string, timestamp: number, body: Body): string {
  return secrets.map((secret) => webhookSignature(secret, id, timestamp, body)).join(' ');
}

/** Headers as Node (`IncomingHttpHeaders`) or fetch (`Headers`) give them. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks a delivery and answers its event. Throws WebhookVerificationError when a header is missing, the timestamp
 * is more than `toleranceSeconds` from now either way (a replayed or held-back request), or no `v1` signature in
 * the header matches the body under the secret (any of them, when given several). `now` is unix milliseconds.
 */
export function verifyWebhook<T = unknown>(
  secret: string | readonly string[],
  headers: WebhookHeaders,
  body: Body,
  toleranceSeconds: number = WEBHOOK_LIMITS.toleranceSeconds,
  now: number = Date.now(),
): WebhookEvent<T> {
  const id = header(headers, WEBHOOK_HEADERS.id);
  const stamp = header(headers, WEBHOOK_HEADERS.timestamp);
  const signatures = header(headers, WEBHOOK_HEADERS.signature);
  if (!id || !stamp || !signatures) throw new WebhookVerificationError('A webhook header is missing.');
  if (!/^\d{1,12}$/.test(stamp)) throw new WebhookVerificationError('The webhook timestamp is not unix seconds.');
  const timestamp = Number(stamp);
  const skew = Math.floor(now / 1000) - timestamp;
  if (skew > toleranceSeconds) throw new WebhookVerificationError('The webhook timestamp is too old.');
  if (skew < -toleranceSeconds) throw new WebhookVerificationError('The webhook timestamp is in the future.');
  const expected = (typeof secret === 'string' ? [secret] : secret).map((s) =>
    hmac(webhookKey(s), id, timestamp, body),
  );
  const matches = signatures.split(' ').some((signature) => {
    const [version, encoded] = signature.split(',', 2);
    if (version !== 'v1' || !encoded) return false;
    const given = Buffer.from(encoded, 'base64');
    return expected.some((e) => e.length === given.length && timingSafeEqual(e, given));
  });
  if (!matches) throw new WebhookVerificationError('No webhook signature matches.');
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  try {
    return JSON.parse(text) as WebhookEvent<T>;
  } catch {
    throw new WebhookVerificationError('The webhook body is not JSON.');
  }
}
