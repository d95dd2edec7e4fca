/**
 * The "who" choices of the usage page: everyone can pick themselves; an administrator their organization and each
 * member; super and root everyone, any organization and any user (the server checks the same, scope.ts).
 */
import type { User } from '@tessera/common/entities';
import { RESOURCE_PATHS, type UserEntry } from '@tessera/common/resources';
import { hasRank } from '@tessera/common/roles';
import { useMemo } from 'react';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import type { WhoOption } from './usage-filters';

export function useWhoOptions(self: User): WhoOption[] {
  const across = hasRank(self.role, 'super');
  const admin = hasRank(self.role, 'admin') && self.organizationId !== null;
  useFetch(across || admin ? RESOURCE_PATHS.users : null);
  useFetch(across ? RESOURCE_PATHS.organizations : null);
  const users = useStore((s) => s.areas.users) as Record<string, UserEntry> | undefined;
  const organizations = useStore((s) => s.areas.organizations) as
    | Record<string, { id: number; name: string }>
    | undefined;
  return useMemo(() => {
    const out: WhoOption[] = [];
    if (across) out.push({ value: 'all', label: 'Everyone', group: 'Scope' });
    out.push({ value: 'me', label: 'Me', group: 'Scope' });
    if (self.organizationId !== null && (admin || across)) {
      out.push({ value: 'organization', label: 'My organization', group: 'Scope' });
    }
    if (across) {
      for (const o of Object.values(organizations ?? {}).sort((a, b) => a.name.localeCompare(b.name))) {
        out.push({ value: `organization:${o.id}`, label: o.name, group: 'Organizations' });
      }
    }
    if (across || admin) {
      const members = Object.values(users ?? {}).filter(
        (u) => u.id !== self.id && (across || u.organizationId === self.organizationId),
      );
      for (const u of members.sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email))) {
        out.push({ value: `user:${u.id}`, label: u.name ? `${u.name} (${u.email})` : u.email, group: 'Users' });
      }
    }
    return out;
  }, [across, admin, self.id, self.organizationId, users, organizations]);
}
