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

export function providerHref(id: ProviderId): string {
  return `/oauth/${id}`;
}

/** Why an outside sign-in came back to /login; the login page shows the matching alert. */
export const PROVIDER_FAILURES = {
  unconfigured: (name: string) => `Sign-in with ${name} is not set up on this server. Use your email and password.`,
} as const;
export type ProviderFailure = keyof typeof PROVIDER_FAILURES;

export function findProvider(id: string): IdentityProvider | undefined {
  return IDENTITY_PROVIDERS.find((p) => p.id === id);
}
