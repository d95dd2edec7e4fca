import { describe, expect, it } from 'vitest';
import { isLoopbackHost, WEBHOOK_LIMITS, WEBHOOK_MESSAGES, webhookUrlProblem } from './webhooks';

describe('webhookUrlProblem', () => {
  it.each([
    'https://hooks.example.com/tessera?token=abc',
    'https://93.184.215.14:8443/h',
    'http://localhost:8080/h',
    'http://api.localhost/h',
    'http://127.0.0.1/h',
    'http://127.10.0.1/h',
    'http://[::1]:9000/h',
    'http://[::ffff:127.0.0.1]/h',
    'http://2130706433/h',
  ])('takes %s', (url) => {
    expect(webhookUrlProblem(url)).toBeNull();
  });

  it.each([
    ['example.com/hook', WEBHOOK_MESSAGES.url],
    ['https://', WEBHOOK_MESSAGES.url],
    ['http://example.com/hook', WEBHOOK_MESSAGES.urlScheme],
    ['http://10.0.0.1/hook', WEBHOOK_MESSAGES.urlScheme],
    ['http://localhost.example.com/hook', WEBHOOK_MESSAGES.urlScheme],
    ['ftp://example.com/hook', WEBHOOK_MESSAGES.urlScheme],
    ['https://user:secret@example.com/', WEBHOOK_MESSAGES.urlCredentials],
    ['https://example.com/hook#part', WEBHOOK_MESSAGES.urlFragment],
    ['https://example.com/hook#', WEBHOOK_MESSAGES.urlFragment],
    [`https://example.com/${'a'.repeat(WEBHOOK_LIMITS.urlMax)}`, WEBHOOK_MESSAGES.urlTooLong],
  ])('refuses %s', (url, message) => {
    expect(webhookUrlProblem(url)).toBe(message);
  });

  it('reads loopback hosts as the URL parser writes them', () => {
    expect(
      ['localhost', 'LOCALHOST', 'a.b.localhost', '127.0.0.1', '[::1]', '[::ffff:7f00:1]'].every(isLoopbackHost),
    ).toBe(true);
    expect(['localhost.example', '128.0.0.1', '[::2]', '[::ffff:a00:1]', 'example.com'].some(isLoopbackHost)).toBe(
      false,
    );
  });
});
