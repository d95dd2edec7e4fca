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
