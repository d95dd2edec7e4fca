/** The /v2/releases calls of the releases pages; replies merge into the `releases` area through the client. */
import type { Release } from '@tessera/common/deployments';
import { useMemo } from 'react';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';

export const RELEASES_PATH = '/v2/releases';

export type ReleaseInput = { version: string; commit: string; notes: string };

const first = (reply: { releases?: Record<string, Release> }) => Object.values(reply.releases ?? {})[0];

export async function createRelease(input: ReleaseInput): Promise<Release | undefined> {
  return first(await api.post<{ releases?: Record<string, Release> }>(RELEASES_PATH, input));
}
export const updateRelease = (id: number, input: Partial<ReleaseInput>) => api.put(`${RELEASES_PATH}/${id}`, input);
export const publishReleases = (ids: number[]) => api.post(`${RELEASES_PATH}/${ids.join(',')}/publish`);
export const deleteReleases = (ids: number[]) => api.del(`${RELEASES_PATH}/${ids.join(',')}`);

/** Every release in the store, newest first. */
export function useReleases(): Release[] {
  const items = useStore((s) => s.areas.releases) as Record<string, Release> | undefined;
  return useMemo(() => Object.values(items ?? {}).sort((a, b) => b.id - a.id), [items]);
}

export function useRelease(id: number | undefined): Release | undefined {
  return useStore((s) =>
    id === undefined ? undefined : (s.areas.releases as Record<string, Release> | undefined)?.[id],
  );
}
