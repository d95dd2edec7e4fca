/**
 * A release (spec §2 resource routes, root): /releases/add cuts one, /releases/{id} shows it, /releases/edit/{id}
 * changes a draft, /releases/publish/{id}[,{id}…] and /releases/delete/{id}[,{id}…] ask for confirmation first.
 */
import CircularProgress from '@mui/material/CircularProgress';
import { DEPLOYMENTS_CHANNEL, type Release } from '@tessera/common/deployments';
import { useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { navigate } from '../../lib/navigator';
import { socket } from '../../lib/socket';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { confirmInDialog } from '../confirm-dialog';
import { PageHeading } from '../page-heading';
import { deleteReleases, publishReleases, RELEASES_PATH } from './release-api';
import { ReleaseEditor } from './release-editor';
import { ReleaseView } from './release-view';

function ConfirmAction({ ids, action }: { ids: number[]; action: 'publish' | 'delete' }) {
  const all = useStore((s) => s.areas.releases) as Record<string, Release> | undefined;
  const loaded = useFetch(`${RELEASES_PATH}/${ids.join(',')}`);
  const asked = useRef(false);
  const releases = ids.map((id) => all?.[id]).filter((r): r is Release => r !== undefined);
  const back = ids.length === 1 ? `/releases/${ids[0]}` : '/releases';

  useEffect(() => {
    if (!loaded || asked.current) return;
    asked.current = true;
    if (releases.length !== ids.length) {
      navigate('/error/404', { replace: true });
      return;
    }
    const names = releases.map((r) => r.version).join(', ');
    const publish = action === 'publish';
    const one = releases.length === 1;
    const verb = publish ? 'Publish' : 'Delete';
    confirmInDialog({
      title: one ? `${verb} Release` : `${verb} ${releases.length} Releases`,
      text: publish
        ? `Publish ${names}? ${one ? 'A published release' : 'Published releases'} can be deployed and can no longer be changed or deleted.`
        : `Delete the draft${one ? '' : 's'} ${names} and ${one ? 'its artifact' : 'their artifacts'}? This cannot be undone.`,
      confirmLabel: verb,
      onConfirm: async () => {
        if (publish) await publishReleases(ids);
        else await deleteReleases(ids);
        navigate(publish ? back : '/releases', { replace: true });
      },
      onCancel: () => navigate(back, { replace: true }),
    });
  }, [loaded, releases, ids, action, back]);

  return (
    <>
      <PageHeading>{`${action === 'publish' ? 'Publish' : 'Delete'} ${ids.length === 1 ? 'Release' : 'Releases'}`}</PageHeading>
      {!loaded && <CircularProgress aria-label="Loading the release" />}
    </>
  );
}

export default function ReleasePage({ resource }: PageProps) {
  useEffect(() => socket.watch(DEPLOYMENTS_CHANNEL), []);
  if (!resource) return <Navigate to="/error/404" replace />;
  const [id] = resource.ids;
  switch (resource.mode) {
    case 'create':
      return <ReleaseEditor />;
    case 'edit':
      return id !== undefined && resource.ids.length === 1 ? (
        <ReleaseEditor id={id} />
      ) : (
        <Navigate to="/error/404" replace />
      );
    case 'publish':
      return <ConfirmAction ids={resource.ids} action="publish" />;
    case 'delete':
      return <ConfirmAction ids={resource.ids} action="delete" />;
    default:
      return resource.ids.length > 0 ? (
        <>
          {resource.ids.map((each) => (
            <ReleaseView key={each} id={each} />
          ))}
        </>
      ) : (
        <Navigate to="/error/404" replace />
      );
  }
}
