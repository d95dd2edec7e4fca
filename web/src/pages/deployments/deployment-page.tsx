/**
 * A deployment (spec §2 resource routes, root): /deployments/add deploys a release, /deployments/{id} shows one
 * live, /deployments/delete/{id}[,{id}…] deletes finished ones after a confirmation.
 */
import CircularProgress from '@mui/material/CircularProgress';
import { DEPLOYMENTS_CHANNEL, type Deployment } from '@tessera/common/deployments';
import { useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { navigate } from '../../lib/navigator';
import { socket } from '../../lib/socket';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { confirmInDialog } from '../confirm-dialog';
import { PageHeading } from '../page-heading';
import { DEPLOYMENTS_PATH, deleteDeployments } from './deployment-api';
import { DeploymentForm } from './deployment-form';
import { DeploymentView } from './deployment-view';

function DeleteDeployments({ ids }: { ids: number[] }) {
  const all = useStore((s) => s.areas.deployments) as Record<string, Deployment> | undefined;
  const loaded = useFetch(`${DEPLOYMENTS_PATH}/${ids.join(',')}`);
  const asked = useRef(false);
  const found = ids.map((id) => all?.[id]).filter((d): d is Deployment => d !== undefined);

  useEffect(() => {
    if (!loaded || asked.current) return;
    asked.current = true;
    if (found.length !== ids.length) {
      navigate('/error/404', { replace: true });
      return;
    }
    const names = found.map((d) => `#${d.id} (${d.version} to ${d.deploying.environment})`).join(', ');
    confirmInDialog({
      title: found.length === 1 ? 'Delete Deployment' : `Delete ${found.length} Deployments`,
      text: `Delete ${names} and ${found.length === 1 ? 'its' : 'their'} task logs? Only finished deployments can be deleted.`,
      confirmLabel: 'Delete',
      onConfirm: async () => {
        await deleteDeployments(ids);
        navigate('/deployments', { replace: true });
      },
      onCancel: () => navigate('/deployments', { replace: true }),
    });
  }, [loaded, found, ids]);

  return (
    <>
      <PageHeading>{ids.length === 1 ? 'Delete Deployment' : 'Delete Deployments'}</PageHeading>
      {!loaded && <CircularProgress aria-label="Loading the deployments" />}
    </>
  );
}

export default function DeploymentPage({ resource }: PageProps) {
  useEffect(() => socket.watch(DEPLOYMENTS_CHANNEL), []);
  if (!resource) return <Navigate to="/error/404" replace />;
  switch (resource.mode) {
    case 'create':
      return <DeploymentForm />;
    case 'delete':
      return <DeleteDeployments ids={resource.ids} />;
    case 'view':
      return resource.ids.length > 0 ? (
        <>
          {resource.ids.map((id) => (
            <DeploymentView key={id} id={id} />
          ))}
        </>
      ) : (
        <Navigate to="/error/404" replace />
      );
    default:
      return <Navigate to="/error/404" replace />;
  }
}
