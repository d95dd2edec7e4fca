/**
 * The JavaScript client's webhook verification (issue 33 item 4): the Standard Webhooks test vector, deliveries the
 * server's own signer made (common/src/webhook-signature.ts), a rotation's two signatures, and every refusal.
 */
import { createHmac } from 'node:crypto';
import { signWebhook } from '@tessera/common/webhook-signature';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError, webhookSignature } from '../src/index';

// The example of the Standard Webhooks specification.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER = 'whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODk=';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
const at = (seconds: number) => ({ now: seconds * 1000 });
const headers = (signature = SIGNATURE, timestamp = String(TIMESTAMP)) => ({
  'webhook-id': ID,
  'Webhook-Timestamp': timestamp,
  'WEBHOOK-SIGNATURE': signature,
});

describe('webhook verification', () => {
  it('signs as the specification does', async () => {
    expect(await webhookSignature(SECRET, ID, TIMESTAMP, BODY)).toBe(SIGNATURE);
  });

  it('accepts a signed delivery, headers in any case or as fetch Headers, and returns its event', async () => {
    expect(await verifyWebhook(SECRET, headers(), BODY, at(TIMESTAMP + 10))).toEqual({ test: 2432232314 });
    const fetched = new Headers(headers());
    expect(await verifyWebhook(SECRET, fetched, new TextEncoder().encode(BODY), at(TIMESTAMP))).toEqual({
      test: 2432232314,
    });
  });

  it("verifies what the server's signer signs, with either secret during a rotation", async () => {
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { ok: true } });
    const now = Math.floor(Date.now() / 1000);
    const both = signWebhook([OTHER, SECRET], 'msg_x', now, body);
    for (const secret of [SECRET, OTHER]) {
      const event = await verifyWebhook(secret, { ...headers(both, String(now)), 'webhook-id': 'msg_x' }, body);
      expect(event.type).toBe('webhook.test');
    }
    expect((await verifyWebhook([OTHER, SECRET], headers(), BODY, at(TIMESTAMP))).data).toBeUndefined();
  });

  it('refuses what Tessera did not sign just now, saying why', async () => {
    const refused = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WebhookVerificationError);
      return (error as Error).message;
    };
    expect(await refused(verifyWebhook(SECRET, headers(), BODY.replace('14', '15'), at(TIMESTAMP)))).toBe(
      'No webhook signature matches the body.',
    );
    expect(await refused(verifyWebhook(OTHER, headers(), BODY, at(TIMESTAMP)))).toBe(
      'No webhook signature matches the body.',
    );
    expect(await refused(verifyWebhook(SECRET, headers(), BODY, at(TIMESTAMP + 301)))).toBe(
      'The webhook timestamp is too old.',
    );
    expect(await refused(verifyWebhook(SECRET, headers(), BODY, at(TIMESTAMP - 301)))).toBe(
      'The webhook timestamp is in the future.',
    );
    expect(await refused(verifyWebhook(SECRET, headers(`v2,${SIGNATURE.slice(3)}`), BODY, at(TIMESTAMP)))).toBe(
      'No webhook signature matches the body.',
    );
    expect(await refused(verifyWebhook(SECRET, { 'webhook-id': ID }, BODY, at(TIMESTAMP)))).toBe(
      'A webhook header is missing.',
    );
    expect(await refused(verifyWebhook(SECRET, headers(SIGNATURE, '-5'), BODY, at(TIMESTAMP)))).toBe(
      'The webhook timestamp is not unix seconds.',
    );
    for (const body of ['not json', '[1, 2]']) {
      const signed = headers(await webhookSignature(SECRET, ID, TIMESTAMP, body));
      expect(await refused(verifyWebhook(SECRET, signed, body, at(TIMESTAMP)))).toBe(
        'The webhook body is not a JSON object.',
      );
    }
  });

  it('takes a malformed secret for the set-up error it is, not a forged delivery', async () => {
    const error = await verifyWebhook('whsec_***', headers(), BODY, at(TIMESTAMP)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/not base64/);
  });

  it('checks the timestamp digits as sent', async () => {
    const padded = `0${TIMESTAMP}`;
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
    const signature = `v1,${createHmac('sha256', key).update(`${ID}.${padded}.${BODY}`).digest('base64')}`;
    expect(await verifyWebhook(SECRET, headers(signature, padded), BODY, at(TIMESTAMP))).toEqual({ test: 2432232314 });
  });
});
