import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { OauthFailure } from './failures';
import { asFailure } from './service';

describe('what a failed outside sign-in is called', () => {
  it('treats timeouts and aborts, raw or wrapped by openid-client, as the provider being unavailable', () => {
    const timeout = Object.assign(new Error('timed out'), { code: 'OAUTH_TIMEOUT' });
    const abort = Object.assign(new Error('aborted'), { code: 'OAUTH_ABORT' });
    const raw = Object.assign(new Error('timed out'), { name: 'TimeoutError' });
    const offline = new TypeError('fetch failed');
    for (const err of [timeout, abort, raw, offline]) expect(asFailure(err).reason).toBe('unavailable');
  });

  it('keeps a refusal at the provider apart from other errors', () => {
    const denied = new client.AuthorizationResponseError('denied', {
      cause: new URLSearchParams({ error: 'access_denied' }),
    });
    expect(asFailure(denied).reason).toBe('denied');
    expect(asFailure(new Error('bad signature')).reason).toBe('failed');
    const known = new OauthFailure('unverified');
    expect(asFailure(known)).toBe(known);
  });
});
