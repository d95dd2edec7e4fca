import { ACCOUNT_MESSAGES } from './account-messages';
/** Spec §3 identity provider (id, name, colour, icon): the four outside sign-in providers. */
export interface IdentityProvider {
  id: 'google' | 'microsoft' | 'github' | 'linkedin';
  name: string;
  /** Brand colour of the provider's button. */
  colour: string;
  /** Icon name from the console's icon set. */
  icon: string;
}

export const IDENTITY_PROVIDERS: readonly IdentityProvider[] = [
  { id: 'google', name: 'Google', colour: '#4285f4', icon: 'google' },
  { id: 'microsoft', name: 'Microsoft', colour: '#2f2f2f', icon: 'microsoft' },
  { id: 'github', name: 'GitHub', colour: '#24292f', icon: 'github' },
  { id: 'linkedin', name: 'LinkedIn', colour: '#0a66c2', icon: 'linkedin' },
];

export type ProviderId = IdentityProvider['id'];

/** GET: the providers set up on this server (`{ providers: [{ id, name }] }`); the console shows only those. */
export const PROVIDERS_PATH = '/auth/providers';

/** The 404 a start or callback route answers for a provider not set up here (issue 32). */
export const providerNotConfigured = (name: string) =>
  `Sign-in with ${name} is not set up on this server. Use your email and password.`;

export function providerHref(id: ProviderId): string {
  return `/oauth/${id}`;
}

/**
 * Why an outside sign-in came back to /login (`?failure={reason}&provider={id}`, plus `&domain=` for 'domain');
 * the login page shows the matching alert.
 */
export const PROVIDER_FAILURES = {
  unconfigured: providerNotConfigured,
  /** The person cancelled or refused at the provider. */
  denied: (name: string) => `Sign-in with ${name} was cancelled.`,
  /** No sign-in attempt of this browser was waiting: none started here, it took over 10 minutes, or it was used. */
  expired: (name: string) => `Sign-in with ${name} expired or was already used. Please try again.`,
  /** The provider's answer did not check out (state, code, ID token) or the provider reported an error. */
  failed: (name: string) => `Sign-in with ${name} could not be completed. Please try again.`,
  /** The provider could not be reached. */
  unavailable: (name: string) => `${name} cannot be reached right now. Please try again later.`,
  /** The provider gave no e-mail address or did not mark it verified. */
  unverified: (name: string) =>
    `${name} did not confirm a verified email address, so it cannot be used to sign in here.`,
  /** The local account with that e-mail cannot be linked or signed in (not verified, or inactive). */
  account: (name: string) =>
    `Your account cannot be signed in with ${name}. Sign in with your email and password, or contact your administrator.`,
  /** A new person whose e-mail domain no organization accepts (spec §8 sign-up text). */
  domain: (_name: string, domain?: string) => ACCOUNT_MESSAGES.noAcceptingOrganization(domain || 'your domain'),
  /** Too many sign-ins started from one address. */
  throttled: (name: string) =>
    `Too many sign-ins with ${name} were started from here. Please wait a few minutes and try again.`,
} as const;
export type ProviderFailure = keyof typeof PROVIDER_FAILURES;

export function findProvider(id: string): IdentityProvider | undefined {
  return IDENTITY_PROVIDERS.find((p) => p.id === id);
}
