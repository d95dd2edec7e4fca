import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, WebhookVerificationError, webhookSignature } from './webhook-signature';

// The Standard Webhooks specification's published test vector.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
const AT = TIMESTAMP * 1000;
const OTHER = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

const headers = (signature = SIGNATURE, timestamp = String(TIMESTAMP)) => ({
  'webhook-id': ID,
  'webhook-timestamp': timestamp,
  'webhook-signature': signature,
});

describe('webhookSignature', () => {
  it('reproduces the Standard Webhooks test vector, with or without the whsec_ prefix', () => {
    expect(webhookSignature(SECRET, ID, TIMESTAMP, BODY)).toBe(SIGNATURE);
    expect(webhookSignature(SECRET.slice(6), ID, TIMESTAMP, Buffer.from(BODY))).toBe(SIGNATURE);
  });

  it('signs with every secret given, the first first, space separated', () => {
    const both = signWebhook([OTHER, SECRET], ID, TIMESTAMP, BODY);
    const [first, second] = both.split(' ');
    const key = Buffer.alloc(32, 7);
    expect(first).toBe(`v1,${createHmac('sha256', key).update(`${ID}.${TIMESTAMP}.${BODY}`).digest('base64')}`);
    expect(second).toBe(SIGNATURE);
  });
});

describe('verifyWebhook', () => {
  it('answers the event of a delivery whose signature matches, from Node or fetch headers', () => {
    expect(verifyWebhook(SECRET, headers(), BODY, 300, AT)).toEqual({ test: 2432232314 });
    expect(verifyWebhook(SECRET, new Headers(headers()), BODY, 300, AT + 299_000)).toEqual({ test: 2432232314 });
    expect(
      verifyWebhook(
        SECRET,
        { 'Webhook-Id': ID, 'webhook-timestamp': [String(TIMESTAMP)], 'WEBHOOK-SIGNATURE': SIGNATURE },
        BODY,
        300,
        AT,
      ),
    ).toBeTruthy();
  });

  it('accepts a header with two signatures when either matches, and any of several secrets', () => {
    const both = `${webhookSignature(OTHER, ID, TIMESTAMP, BODY)} ${SIGNATURE}`;
    expect(verifyWebhook(SECRET, headers(both), BODY, 300, AT)).toBeTruthy();
    expect(verifyWebhook(OTHER, headers(both), BODY, 300, AT)).toBeTruthy();
    expect(verifyWebhook([OTHER, SECRET], headers(), BODY, 300, AT)).toBeTruthy();
  });

  it.each([
    ['a wrong secret', OTHER, headers(), BODY, /No webhook signature matches/],
    ['a changed body', SECRET, headers(), '{"test": 2432232315}', /No webhook signature matches/],
    ['another version', SECRET, headers(SIGNATURE.replace('v1,', 'v2,')), BODY, /No webhook signature matches/],
    ['a truncated signature', SECRET, headers(SIGNATURE.slice(0, 20)), BODY, /No webhook signature matches/],
    ['a signature for another timestamp', SECRET, headers(SIGNATURE, String(TIMESTAMP + 1)), BODY, /matches/],
    ['a missing id', SECRET, { ...headers(), 'webhook-id': undefined }, BODY, /header is missing/],
    ['a timestamp that is not seconds', SECRET, headers(SIGNATURE, '1614265330.5'), BODY, /unix seconds/],
  ])('refuses %s', (_, secret, given, body, message) => {
    expect(() => verifyWebhook(secret, given, body, 300, AT)).toThrow(message);
  });

  it('refuses a timestamp older or newer than the tolerance', () => {
    expect(() => verifyWebhook(SECRET, headers(), BODY, 300, AT + 301_000)).toThrow(/too old/);
    expect(() => verifyWebhook(SECRET, headers(), BODY, 300, AT - 301_000)).toThrow(/in the future/);
    expect(() => verifyWebhook(SECRET, headers(), BODY, 10, AT + 11_000)).toThrow(WebhookVerificationError);
  });

  it('refuses a matching signature over a body that is not JSON', () => {
    const body = 'not json';
    const signature = webhookSignature(SECRET, ID, TIMESTAMP, body);
    expect(() => verifyWebhook(SECRET, headers(signature), body, 300, AT)).toThrow(/not JSON/);
  });
});
