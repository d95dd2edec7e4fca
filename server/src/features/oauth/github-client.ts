/**
 * GitHub signs people in with OAuth 2.0 but not OpenID Connect: no discovery, no ID token, no nonce. The flow is
 * the same authorization code with PKCE (S256) and state; the person is then read from GitHub's REST API: the
 * numeric account id (stable, unlike the login) as subject, and the primary address with GitHub's own
 * verified flag from /user/emails. The issuer setting names the GitHub host: github.com (API at api.github.com)
 * or a GitHub Enterprise Server, whose API lives at {host}/api/v3 — which is also how tests point at a local one.
 */
import * as client from 'openid-client';
import type { OauthClientSettings } from '../../config';
import { OauthFailure } from './failures';
import type { AuthorizationChecks, ProviderClaims } from './provider-client';

const SCOPE = 'read:user user:email';
const TIMEOUT_MS = 10_000;

export function githubEndpoints(issuer: URL) {
  const base = issuer.href.replace(/\/+$/, '');
  return {
    authorization: `${base}/login/oauth/authorize`,
    token: `${base}/login/oauth/access_token`,
    api: issuer.hostname === 'github.com' ? 'https://api.github.com' : `${base}/api/v3`,
  };
}

interface GithubUser {
  id?: unknown;
  login?: unknown;
  name?: unknown;
}
interface GithubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

export function createGithubFlow(settings: OauthClientSettings) {
  const endpoints = githubEndpoints(settings.issuer);
  const configuration = new client.Configuration(
    {
      issuer: settings.issuer.href.replace(/\/+$/, ''),
      authorization_endpoint: endpoints.authorization,
      token_endpoint: endpoints.token,
    },
    settings.clientId,
    { client_secret: settings.clientSecret },
    client.ClientSecretPost(settings.clientSecret),
  );
  configuration.timeout = TIMEOUT_MS / 1000;
  const insecure = settings.issuer.protocol === 'http:'; // config allows this only for loopback
  if (insecure) client.allowInsecureRequests(configuration);

  async function api<T>(path: string, token: string): Promise<T> {
    const res = await fetch(`${endpoints.api}${path}`, {
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'user-agent': 'Tessera',
        'x-github-api-version': '2022-11-28',
      },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    // GitHub failing on its side is "unavailable", as a timeout is; anything else did not check out.
    if (res.status >= 500) throw new OauthFailure('unavailable');
    if (!res.ok) throw new Error(`GitHub API ${path} answered ${res.status}`);
    return (await res.json()) as T;
  }

  return {
    async authorizationUrl(redirectUri: string, checks: AuthorizationChecks): Promise<URL> {
      return client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state: checks.state,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        allow_signup: 'false',
      });
    },

    async exchange(callbackUrl: URL, checks: AuthorizationChecks): Promise<ProviderClaims> {
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        expectedState: checks.state,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: false,
      });
      const [user, emails] = await Promise.all([
        api<GithubUser>('/user', tokens.access_token),
        api<GithubEmail[]>('/user/emails', tokens.access_token),
      ]);
      if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new Error('GitHub gave no account id');
      const primary = Array.isArray(emails) ? emails.find((e) => e.primary === true) : undefined;
      const email = typeof primary?.email === 'string' && primary.email.trim() !== '' ? primary.email.trim() : null;
      const name = typeof user.name === 'string' && user.name.trim() ? user.name.trim() : String(user.login ?? '');
      return { subject: String(user.id), email, emailVerified: email !== null && primary?.verified === true, name };
    },
  };
}
