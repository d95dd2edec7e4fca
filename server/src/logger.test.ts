import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from './logger';
import { buildTestApp, type TestApp } from './test/harness';

describe('redactUrl', () => {
  it('keeps path and parameter names, drops values', () => {
    expect(redactUrl('/v2/identities/byEmail?email=jane%40x.example&format=csv')).toBe(
      '/v2/identities/byEmail?email=[redacted]&format=[redacted]',
    );
    expect(redactUrl('/healthz')).toBe('/healthz');
    expect(redactUrl('/x?')).toBe('/x?');
  });
});

describe('request logs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.app.close());

  it('carry no credentials, cookies or query values', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/v2/identities/byEmail?email=jane.doe%40private.example&phone=5551234567',
      headers: {
        authorization: 'Bearer KEYID123456789AAsecretsecretsecretsecretsecret12',
        cookie: 'tessera_session=abc123secret',
      },
    });
    const text = t.logs.join('\n');
    expect(text).toContain('/v2/identities/byEmail?email=[redacted]&phone=[redacted]');
    expect(text).not.toMatch(/jane|private\.example|5551234567|secretsecret|abc123secret/);
  });
});
