/**
 * The OpenID Connect relying party for each configured provider but GitHub (github-client.ts), with openid-client: discovery against the
 * configured issuer (which must match what the provider says it is), the authorization URL with PKCE, state and
 * nonce, and the code exchange with ID token checks (signature, issuer, audience, nonce, expiry).
 */
import type { ProviderId } from '@tessera/common/providers';
import * as client from 'openid-client';
import type { OauthClientSettings } from '../../config';
import { createGithubFlow } from './github-client';

/** Seconds before a call to a provider is given up. */
const PROVIDER_TIMEOUT_S = 10;
/** Discovery metadata is kept this long; keys are refetched by openid-client whenever an unknown one appears. */
const METADATA_TTL_MS = 60 * 60 * 1000;
const SCOPE = 'openid email profile';

/** What Tessera reads about the person from the provider. */
export interface ProviderClaims {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
}

export interface AuthorizationChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * Prefer client_secret_post where the provider lists it (LinkedIn accepts nothing else), else client_secret_basic,
 * the OAuth default when a provider lists no methods.
 */
function secretAuth(secret: string): client.ClientAuth {
  const post = client.ClientSecretPost(secret);
  const basic = client.ClientSecretBasic(secret);
  return (as, c, body, headers) => {
    const methods = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    (methods.includes('client_secret_post') ? post : basic)(as, c, body, headers);
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Some providers send email_verified as the string "true". */
function verified(value: unknown): boolean | null {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return null;
}

export function createProviderClients(settings: Partial<Record<ProviderId, OauthClientSettings>>) {
  const github = settings.github ? createGithubFlow(settings.github) : null;
  const cache = new Map<ProviderId, { at: number; configuration: Promise<client.Configuration> }>();

  function configurationFor(id: ProviderId): Promise<client.Configuration> {
    const cached = cache.get(id);
    if (cached && Date.now() - cached.at < METADATA_TTL_MS) return cached.configuration;
    const s = settings[id];
    if (!s) return Promise.reject(new Error(`provider ${id} is not configured`));
    // Signatures are checked even though the ID token comes straight from the token endpoint. Config lets plain
    // HTTP through only for loopback issuers (tests, a provider on this machine).
    const execute = [client.enableNonRepudiationChecks];
    if (s.issuer.protocol === 'http:') execute.push(client.allowInsecureRequests);
    const configuration = client
      .discovery(s.issuer, s.clientId, { client_secret: s.clientSecret }, secretAuth(s.clientSecret), {
        execute,
        timeout: PROVIDER_TIMEOUT_S,
      })
      .catch((err: unknown) => {
        cache.delete(id); // try discovery again on the next sign-in
        throw err;
      });
    cache.set(id, { at: Date.now(), configuration });
    return configuration;
  }

  return {
    isConfigured: (id: ProviderId) => settings[id] !== undefined,

    /** The provider's authorization endpoint with this attempt's parameters. */
    async authorizationUrl(id: ProviderId, redirectUri: string, checks: AuthorizationChecks): Promise<URL> {
      if (id === 'github' && github) return github.authorizationUrl(redirectUri, checks);
      const configuration = await configurationFor(id);
      return client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: SCOPE,
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    /**
     * Checks the callback (state, iss, error), exchanges the code with the PKCE verifier, verifies the ID token and
     * reads the person's claims; asks the userinfo endpoint for what the ID token left out.
     */
    async exchange(id: ProviderId, callbackUrl: URL, checks: AuthorizationChecks): Promise<ProviderClaims> {
      if (id === 'github' && github) return github.exchange(callbackUrl, checks);
      const configuration = await configurationFor(id);
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      let name = text(idToken.name);
      let email = text(idToken.email);
      let emailVerified = verified(idToken.email_verified);
      // Microsoft's stand-in for email_verified (see below), from the same source as the address.
      let domainOwnerVerified = verified(idToken.xms_edov);
      if ((email === null || emailVerified === null) && configuration.serverMetadata().userinfo_endpoint) {
        // The address and whether it is verified are taken together, from one source.
        const info = await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
        if (text(info.email) !== null) {
          email = text(info.email);
          emailVerified = verified(info.email_verified);
          domainOwnerVerified = verified(info.xms_edov);
        }
        name ??= text(info.name);
      }
      // Microsoft never sends email_verified; its optional claim xms_edov (configured on the app registration) says
      // whether the owner of the address's domain verified it. Without that claim, its addresses count as unverified.
      if (emailVerified === null && id === 'microsoft') emailVerified = domainOwnerVerified;
      return { subject: idToken.sub, email, emailVerified: emailVerified === true, name: name ?? '' };
    },
  };
}

export type ProviderClients = ReturnType<typeof createProviderClients>;
