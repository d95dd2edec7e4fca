/**
 * API keys (issue 15; spec §2 resource pattern with key ids): /keys/add makes one, /keys/{id} shows one,
 * /keys/edit/{id} changes one, and /keys/delete/{id}[,{id}…] revokes one or several after one confirmation.
 * The lists are the Keys sections of the user and organization pages.
 */
import CircularProgress from '@mui/material/CircularProgress';
import { type KeyEntry, parseKeyResource } from '@tessera/common/key-settings';
import { useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { confirmInDialog } from '../confirm-dialog';
import { PageHeading } from '../page-heading';
import { ResourceList } from '../resource-list';
import { KEYS_PATH, revokeKeys } from './key-api';
import { KeyEditor } from './key-editor';
import { KeyView } from './key-view';

/** Where to go after revoking: the keys' user's page when they share one, else one's own. */
function afterRevoke(keys: KeyEntry[], selfId: number): string {
  const owners = new Set(keys.map((k) => k.userId));
  const [owner] = owners;
  return `/users/${owners.size === 1 && owner !== undefined ? owner : selfId}#keys`;
}

function RevokeKeys({ ids }: { ids: string[] }) {
  const selfId = useStore((s) => s.self.id);
  const all = useStore((s) => s.areas.keys) as Record<string, KeyEntry> | undefined;
  const loaded = useFetch(ids.length === 1 ? `${KEYS_PATH}/${ids[0]}` : KEYS_PATH);
  const asked = useRef(false);
  const keys = ids.map((id) => all?.[id]).filter((k): k is KeyEntry => k !== undefined);

  useEffect(() => {
    if (!loaded || asked.current) return;
    asked.current = true;
    if (keys.length !== ids.length) {
      navigate('/error/404', { replace: true });
      return;
    }
    const names = keys.map((k) => `${k.name} (${k.id})`).join(', ');
    const back = afterRevoke(keys, selfId);
    confirmInDialog({
      title: keys.length === 1 ? 'Revoke API Key' : `Revoke ${keys.length} API Keys`,
      text: `Revoke ${names}? Calls with ${keys.length === 1 ? 'it' : 'them'} are refused at once, on every server. This cannot be undone.`,
      confirmLabel: 'Revoke',
      onConfirm: async () => {
        await revokeKeys(keys.map((k) => k.id));
        navigate(back, { replace: true });
      },
      onCancel: () => navigate(ids.length === 1 ? `/keys/${ids[0]}` : back, { replace: true }),
    });
  }, [loaded, keys, ids, selfId]);

  return (
    <>
      <PageHeading>{ids.length === 1 ? 'Revoke API Key' : 'Revoke API Keys'}</PageHeading>
      {!loaded && <CircularProgress aria-label="Loading the keys" />}
    </>
  );
}

export default function KeyPage({ params }: PageProps) {
  const resource = parseKeyResource(params.action ?? params.id, params.action ? params.id : undefined);
  if (!resource) return <Navigate to="/error/404" replace />;
  const [id] = resource.ids;
  switch (resource.mode) {
    case 'create':
      return <KeyEditor />;
    case 'edit':
      return id ? <KeyEditor id={id} /> : <Navigate to="/error/404" replace />;
    case 'delete':
      return <RevokeKeys ids={resource.ids} />;
    default:
      if (resource.ids.length > 1) {
        return (
          <ResourceList<KeyEntry>
            plural="API Keys"
            area="keys"
            ids={resource.ids}
            path={KEYS_PATH}
            href={(k) => `/keys/${k.id}`}
            name={(k) => k.name}
            columns={[
              { label: 'Key id', value: (k) => k.id },
              { label: 'Secret ends', value: (k) => `…${k.lastFour}` },
            ]}
          />
        );
      }
      return id ? <KeyView key={id} id={id} /> : <Navigate to="/error/404" replace />;
  }
}
