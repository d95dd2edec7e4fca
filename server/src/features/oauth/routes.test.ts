import { IDENTITY_PROVIDERS, PROVIDERS_PATH, providerNotConfigured } from '@tessera/common/providers';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthAttempts } from '../../db/schema';
import { buildTestApp, type TestApp } from '../../test/harness';
import { freePort } from '../../test/process';
import { hashToken } from '../sessions/tokens';
import { startTestIssuer, type TestIssuer } from './test-issuer';

let bare: TestApp;
let issuer: TestIssuer;
let t: TestApp;

beforeAll(async () => {
  bare = await buildTestApp();
  issuer = await startTestIssuer({ publicUrl: new URL('https://console.tessera.example'), ids: ['google'] });
  t = await buildTestApp({
    env: {
      PUBLIC_URL: 'https://console.tessera.example',
      ...issuer.env(['google']),
      // The same provider under another name: discovery finds an issuer that differs from the configured one.
      OAUTH_LINKEDIN_CLIENT_ID: 'tessera-linkedin',
      OAUTH_LINKEDIN_CLIENT_SECRET: 'secret',
      OAUTH_LINKEDIN_ISSUER: issuer.url.replace('127.0.0.1', 'localhost'),
      // Nothing listens here.
      OAUTH_MICROSOFT_CLIENT_ID: 'tessera-microsoft',
      OAUTH_MICROSOFT_CLIENT_SECRET: 'secret',
      OAUTH_MICROSOFT_ISSUER: `http://127.0.0.1:${await freePort()}`,
    },
  });
});
afterAll(async () => {
  await Promise.all([bare.app.close(), t.app.close()]);
  await issuer.close();
});

const location = (res: { headers: Record<string, unknown> }) => new URL(String(res.headers.location), 'http://x');

describe('GET /auth/providers', () => {
  it('names the configured providers only, in the spec order, with nothing of their registrations', async () => {
    const none = await bare.app.inject({ method: 'GET', url: PROVIDERS_PATH });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ providers: [] });
    const some = await t.app.inject({ method: 'GET', url: PROVIDERS_PATH });
    expect(some.json()).toEqual({
      providers: [
        { id: 'google', name: 'Google' },
        { id: 'microsoft', name: 'Microsoft' },
        { id: 'linkedin', name: 'LinkedIn' },
      ],
    });
    expect(some.body).not.toMatch(/secret|tessera-google|issuer/i);
  });
});

describe('GET /oauth/{provider}', () => {
  it.each(IDENTITY_PROVIDERS)('answers 404 naming $name when it is not set up, on both routes', async (provider) => {
    for (const url of [`/oauth/${provider.id}`, `/oauth/${provider.id}/callback?code=x&state=y`]) {
      const res = await bare.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: providerNotConfigured(provider.name), code: 'not_found' });
      expect(res.cookies.filter((c) => c.value !== '')).toHaveLength(0);
    }
  });

  it('answers 404 JSON for an unknown provider, on both routes', async () => {
    for (const url of ['/oauth/myspace', '/oauth/myspace/callback?code=x']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'No such sign-in provider.', code: 'not_found' });
    }
  });

  it('leaves a configured provider unconfigured for the others', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/oauth/github' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(providerNotConfigured('GitHub'));
  });

  it('sends a configured provider an authorization-code request with PKCE, state and nonce', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/oauth/google', headers: { host: 'evil.example' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const to = new URL(String(res.headers.location));
    expect(to.origin).toBe(issuer.url);
    const q = Object.fromEntries(to.searchParams);
    expect(q).toMatchObject({
      client_id: 'tessera-google',
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      // From PUBLIC_URL, never from the Host header.
      redirect_uri: 'https://console.tessera.example/oauth/google/callback',
    });
    expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const cookie = res.cookies.find((c) => c.name === '__Secure-tessera_oauth')!;
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/oauth', maxAge: 600 });
    // The database keeps the attempt under the hash of the cookie's id, and the verifier, never sent out.
    const [row] = await t.database.db
      .select()
      .from(oauthAttempts)
      .where(eq(oauthAttempts.idHash, hashToken(cookie.value)));
    expect(row).toMatchObject({ provider: 'google', state: q.state, nonce: q.nonce });
    expect(row!.codeVerifier).not.toBe(q.code_challenge);
    expect(JSON.stringify(q)).not.toContain(row!.codeVerifier);
  });

  it('starts nothing on HEAD', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/oauth/google' });
    // GET only (no HEAD route, so no attempt is started by a HEAD): 405 naming it (issue 31).
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.cookies).toHaveLength(0);
  });

  it('starts a new attempt, with new values, every time', async () => {
    const [a, b] = await Promise.all([1, 2].map(() => t.app.inject({ method: 'GET', url: '/oauth/google' })));
    expect(location(a!).searchParams.get('state')).not.toBe(location(b!).searchParams.get('state'));
    expect(a!.cookies[0]!.value).not.toBe(b!.cookies[0]!.value);
  });

  it('refuses a provider whose discovered issuer is not the configured one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/oauth/linkedin' });
    expect(res.headers.location).toBe('/login?failure=unavailable&provider=linkedin');
    expect(res.cookies).toHaveLength(0);
  });

  it('says so when the provider cannot be reached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/oauth/microsoft' });
    expect(res.headers.location).toBe('/login?failure=unavailable&provider=microsoft');
  });
});
