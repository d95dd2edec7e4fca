/**
 * The SSH page's data: keys, host groups, grants and the CA, kept in the page's own state (not the shared store:
 * these areas are the page's alone) and updated from each reply, deletions and revocations included.
 */
import type { SshCa, SshGrant, SshHostGroup, SshKey } from '@tessera/common/ssh';
import { useCallback, useEffect, useState } from 'react';
import { request } from '../../lib/api';
import { mergeCollection } from '../../lib/store';
import { useLoads } from '../../lib/use-fetch';

type Keyed<T> = Record<string, T>;
type Collection = Parameters<typeof mergeCollection>[0];

const merge = <T>(current: Keyed<T>, incoming: unknown) =>
  mergeCollection(current as unknown as Collection, incoming, 'id') as unknown as Keyed<T>;

export interface SshData {
  keys: Keyed<SshKey>;
  groups: Keyed<SshHostGroup>;
  grants: Keyed<SshGrant>;
  ca: SshCa | null;
  loaded: boolean;
}

interface Reply {
  sshKeys?: Keyed<SshKey>;
  sshHostGroups?: Keyed<SshHostGroup & { token?: string }>;
  sshGrants?: Keyed<SshGrant>;
  sshCa?: SshCa;
}

const EMPTY: SshData = { keys: {}, groups: {}, grants: {}, ca: null, loaded: false };

export const call = <T = Reply>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
  request<T>(method, path, { body, merge: false });

export function useSshData() {
  const [data, setData] = useState<SshData>(EMPTY);

  const apply = useCallback((reply: Reply) => {
    setData((d) => ({
      ...d,
      keys: reply.sshKeys ? merge(d.keys, reply.sshKeys) : d.keys,
      groups: reply.sshHostGroups ? merge(d.groups, stripTokens(reply.sshHostGroups)) : d.groups,
      grants: reply.sshGrants ? merge(d.grants, reply.sshGrants) : d.grants,
      ca: reply.sshCa ?? d.ca,
    }));
  }, []);

  // A failed read shows its error and a Retry in place of the sections, never their empty sentences (issue 32).
  const { track, ...loads } = useLoads();
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is what Retry changes, to read again
  useEffect(() => {
    let live = true;
    const paths = ['/v2/ssh/keys', '/v2/ssh/groups', '/v2/ssh/grants', '/v2/ssh/ca'];
    const read = Promise.allSettled(paths.map((p) => call('GET', p))).then((results) => {
      if (live) for (const r of results) if (r.status === 'fulfilled') apply(r.value as Reply);
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    });
    track(read)
      .catch(() => {
        // Shown in place of the sections, with a Retry.
      })
      .finally(() => {
        if (live) setData((d) => ({ ...d, loaded: true }));
      });
    return () => {
      live = false;
    };
  }, [apply, track, attempt]);

  return { data, apply, loads: { ...loads, retry } };
}

/** A group's token stays in the dialog that shows it once, never in the page's lists. */
function stripTokens(groups: Keyed<SshHostGroup & { token?: string }>): Keyed<SshHostGroup> {
  const out: Keyed<SshHostGroup> = {};
  for (const [id, { token: _token, ...group }] of Object.entries(groups)) out[id] = group;
  return out;
}

export const sortedBy = <T>(items: Keyed<T>, compare: (a: T, b: T) => number) => Object.values(items).sort(compare);
