/** The /v2/deployments, /v2/environments and /v2/tasks calls of the deployments pages, and their store areas. */
import type { Deployment, Environment, Release, Task } from '@tessera/common/deployments';
import { useMemo } from 'react';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';

export const DEPLOYMENTS_PATH = '/v2/deployments';
export const ENVIRONMENTS_PATH = '/v2/environments';
export const RELEASES_PATH = '/v2/releases';

type Keyed<T> = Record<string, T> | undefined;

export async function createDeployment(body: { releaseId: number; environment: string; hosts: string[] }) {
  const reply = await api.post<{ deployments?: Record<string, Deployment> }>(DEPLOYMENTS_PATH, body);
  return Object.values(reply.deployments ?? {})[0];
}
export const cancelDeployment = (id: number) => api.post(`${DEPLOYMENTS_PATH}/${id}/cancel`);
export const retryDeployment = (id: number) => api.post(`${DEPLOYMENTS_PATH}/${id}/retry`);
export const deleteDeployments = (ids: number[]) => api.del(`${DEPLOYMENTS_PATH}/${ids.join(',')}`);

export function useDeployments(): Deployment[] {
  const items = useStore((s) => s.areas.deployments) as Keyed<Deployment>;
  return useMemo(() => Object.values(items ?? {}).sort((a, b) => b.id - a.id), [items]);
}

export function useDeployment(id: number): Deployment | undefined {
  return useStore((s) => (s.areas.deployments as Keyed<Deployment>)?.[id]);
}

/** A deployment's tasks in the environment's host order. */
export function useTasks(deploymentId: number): Task[] {
  const items = useStore((s) => s.areas.tasks) as Keyed<Task>;
  return useMemo(
    () =>
      Object.values(items ?? {})
        .filter((t) => t.deploymentId === deploymentId)
        .sort((a, b) => a.position - b.position),
    [items, deploymentId],
  );
}

export function useEnvironments(): Environment[] {
  const items = useStore((s) => s.areas.environments) as Keyed<Environment>;
  return useMemo(() => Object.values(items ?? {}), [items]);
}

/** Published releases, newest first: what can be deployed. */
export function usePublishedReleases(): Release[] {
  const items = useStore((s) => s.areas.releases) as Keyed<Release>;
  return useMemo(
    () =>
      Object.values(items ?? {})
        .filter((r) => r.status === 'published')
        .sort((a, b) => b.id - a.id),
    [items],
  );
}
