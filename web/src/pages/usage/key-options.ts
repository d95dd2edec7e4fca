/**
 * The key filter's choices (issue 32): the API keys the viewer may manage (the server lists exactly those) of whoever
 * the who-filter names, by name, for narrowing the usage to one key. The server checks the same scope on every
 * report (usage-reports/filters.ts).
 */
import type { KeyEntry } from '@tessera/common/key-settings';
import { useMemo } from 'react';
import { useStore } from '../../lib/store';
import type { Who } from '../../lib/usage-scope';
import { useFetch } from '../../lib/use-fetch';

export interface KeyOption {
  id: string;
  label: string;
}

/** Whether a key's calls fall under the who-filter. */
export function keyOfWho(
  key: Pick<KeyEntry, 'userId' | 'organizationId'>,
  who: Who,
  self: { id: number; organizationId: number | null },
): boolean {
  if (who === 'all') return true;
  if (who === 'me') return key.userId === self.id;
  if (who === 'organization') return key.organizationId === self.organizationId;
  const [kind, id] = who.split(':') as ['user' | 'organization', string];
  return kind === 'user' ? key.userId === Number(id) : key.organizationId === Number(id);
}

export function useKeyOptions(who: Who, self: { id: number; organizationId: number | null }): KeyOption[] {
  useFetch('/v2/keys');
  const keys = useStore((s) => s.areas.keys) as Record<string, KeyEntry> | undefined;
  return useMemo(
    () =>
      Object.values(keys ?? {})
        .filter((k) => keyOfWho(k, who, self))
        .map((k) => ({ id: k.id, label: k.name ? `${k.name} (${k.id})` : k.id }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [keys, who, self],
  );
}
