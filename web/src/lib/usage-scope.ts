/**
 * Whose usage a page asks for (issue 16), shared by the usage and home pages: the server scopes every report to
 * what the caller may see; these are the filters the console sends, and the time zone its buckets are made in.
 */

/** Whose usage: me, my organization, everyone (super+), or one user or organization by id. */
export type Who = 'me' | 'organization' | 'all' | `user:${number}` | `organization:${number}`;

/** The who-filter as the API's query parameters. */
export function whoQuery(who: Who, self: { id: number; organizationId: number | null }): Record<string, number> {
  if (who === 'me') return { userId: self.id };
  if (who === 'organization')
    return self.organizationId === null ? { userId: self.id } : { organizationId: self.organizationId };
  if (who === 'all') return {};
  const [kind, id] = who.split(':') as ['user' | 'organization', string];
  return kind === 'user' ? { userId: Number(id) } : { organizationId: Number(id) };
}

/** Whose usage a user sees first: their own; an administrator their organization's; super and root everyone's. */
export function defaultWho(role: string, organizationId: number | null): Who {
  if (role === 'super' || role === 'root') return 'all';
  if (role === 'admin' && organizationId !== null) return 'organization';
  return 'me';
}

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
