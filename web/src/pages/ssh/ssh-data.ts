/**
 * The SSH page's data: keys, host groups, grants and the CA, kept in the page's own state (not the shared store:
 * these areas are the page's alone) and updated from each reply, deletions and revocations included.
 */
import type { SshCa, SshGrant, SshHostGroup, SshKey } from '@tessera/common/ssh';
import { useCallback, useEffect, useState } from 'react';
import { request } from '../../lib/api';
import { mergeCollection } from '../../lib/store';

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

  useEffect(() => {
    let live = true;
    const paths = ['/v2/ssh/keys', '/v2/ssh/groups', '/v2/ssh/grants', '/v2/ssh/ca'];
    void Promise.allSettled(paths.map((p) => call('GET', p))).then((results) => {
      if (!live) return;
      for (const r of results) if (r.status === 'fulfilled') apply(r.value as Reply);
      setData((d) => ({ ...d, loaded: true }));
    });
    return () => {
      live = false;
    };
  }, [apply]);

  return { data, apply };
}

/** A group's token stays in the dialog that shows it once, never in the page's lists. */
function stripTokens(groups: Keyed<SshHostGroup & { token?: string }>): Keyed<SshHostGroup> {
  const out: Keyed<SshHostGroup> = {};
  for (const [id, { token: _token, ...group }] of Object.entries(groups)) out[id] = group;
  return out;
}

export const sortedBy = <T>(items: Keyed<T>, compare: (a: T, b: T) => number) => Object.values(items).sort(compare);
