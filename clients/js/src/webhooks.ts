/**
 * Verifying Tessera's webhook deliveries (Standard Webhooks, https://www.standardwebhooks.com), in Node 20+ and any
 * runtime with WebCrypto. Every delivery carries `webhook-id`, `webhook-timestamp` and `webhook-signature`; the
 * signature is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), the key being the base64-decoded
 * signing secret after `whsec_`. During a rotation's overlap the header holds two signatures, space separated.
 *
 *   const event = await verifyWebhook(secret, request.headers, rawBody); // throws WebhookVerificationError
 *
 * Verify the exact bytes received, before parsing them; answer 2xx quickly and drop repeats by `webhook-id`.
 */

/** How far a delivery's timestamp may be from the receiver's clock, either way: 5 minutes. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = 'whsec_';

/** A delivery that Tessera did not sign with this secret just now: refuse it (answer 400). */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** A delivery's event: its type, when it happened, and its data. */
export interface WebhookEvent<T = unknown> {
  type: string;
  timestamp: string;
  data: T;
}

/** Headers as Node (`IncomingHttpHeaders`) or fetch (`Headers`) give them, or a plain object in any case. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null };

export interface VerifyWebhookOptions {
  /** Default WEBHOOK_TOLERANCE_SECONDS. */
  toleranceSeconds?: number;
  /** The receiver's clock, epoch milliseconds; now by default. */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function fromBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function subtle(): SubtleCrypto {
  const found = globalThis.crypto?.subtle;
  if (!found) throw new TypeError('Verifying webhooks needs WebCrypto (crypto.subtle): Node 20+, or a secure context.');
  return found;
}

async function digest(secret: string, id: string, timestamp: string, body: Uint8Array): Promise<Uint8Array> {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = fromBase64(encoded);
  // The receiver's own set-up, not a forged delivery: a programming error rather than a refusal.
  if (!key || key.length === 0) {
    throw new TypeError('The signing secret is empty or not base64: copy it whole from the console (whsec_...).');
  }
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const hmacKey = await subtle().importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await subtle().sign('HMAC', hmacKey, signed));
}

const bytesOf = (body: string | Uint8Array) => (typeof body === 'string' ? new TextEncoder().encode(body) : body);

/** One `v1,...` signature as Tessera computes it (for tests of a receiver). */
export async function webhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string | Uint8Array,
): Promise<string> {
  return `v1,${toBase64(await digest(secret, id, String(timestamp), bytesOf(body)))}`;
}

/** Compares in time independent of where the bytes differ. */
function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Checks a delivery and answers its event. `secret` may be a list (the current and the previous one, during your
 * own rotation). Throws WebhookVerificationError when a header is missing, the timestamp is out of tolerance, no
 * `v1` signature matches the body or the body is not a JSON object; TypeError when the secret itself is malformed.
 */
export async function verifyWebhook<T = unknown>(
  secret: string | readonly string[],
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent<T>> {
  const id = header(headers, 'webhook-id');
  const stamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !stamp || !signatures) throw new WebhookVerificationError('A webhook header is missing.');
  if (!/^\d{1,12}$/.test(stamp)) throw new WebhookVerificationError('The webhook timestamp is not unix seconds.');
  const timestamp = Number(stamp);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  const skew = Math.floor((options.now ?? Date.now()) / 1000) - timestamp;
  if (skew > tolerance) throw new WebhookVerificationError('The webhook timestamp is too old.');
  if (skew < -tolerance) throw new WebhookVerificationError('The webhook timestamp is in the future.');
  const raw = bytesOf(body);
  const expected = await Promise.all(
    // The header's digits as sent: they are what was signed.
    (typeof secret === 'string' ? [secret] : secret).map((s) => digest(s, id, stamp, raw)),
  );
  const matches = signatures.split(' ').some((signature) => {
    const [version, encoded] = signature.split(',', 2);
    const given = version === 'v1' && encoded ? fromBase64(encoded) : null;
    return given !== null && expected.some((e) => same(e, given));
  });
  if (!matches) throw new WebhookVerificationError('No webhook signature matches the body.');
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    event = null;
  }
  if (event === null || typeof event !== 'object' || Array.isArray(event)) {
    throw new WebhookVerificationError('The webhook body is not a JSON object.');
  }
  return event as WebhookEvent<T>;
}
