/**
 * One webhook endpoint by the resource route pattern (spec §2; issue 33): /webhooks/add makes one, /webhooks/{id}
 * shows one with its delivery log, /webhooks/edit/{id} changes one, /webhooks/delete/{id} deletes one after a
 * confirmation. A comma-separated list is shown as a list of the endpoints named.
 */
import CircularProgress from '@mui/material/CircularProgress';
import { WEBHOOK_PATHS, type WebhookEndpoint } from '@tessera/common/webhooks';
import { useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { navigate } from '../../lib/navigator';
import { useFetch } from '../../lib/use-fetch';
import { confirmInDialog } from '../confirm-dialog';
import { PageHeading } from '../page-heading';
import { ResourceList } from '../resource-list';
import { deleteEndpoint, useEndpoint, WEBHOOKS_PATH } from './webhook-api';
import { WebhookEditor } from './webhook-editor';
import { endpointStatus } from './webhook-status';
import { WebhookView } from './webhook-view';

function DeleteEndpoint({ id }: { id: number }) {
  const endpoint = useEndpoint(id);
  const loaded = useFetch(WEBHOOK_PATHS.endpoint(id));
  const asked = useRef(false);

  useEffect(() => {
    if (!loaded || !endpoint || asked.current) return;
    asked.current = true;
    confirmInDialog({
      title: 'Delete Webhook Endpoint',
      text: `Delete the endpoint ${endpoint.url}? Nothing more is sent to it, deliveries still waiting are dropped, and its delivery log goes with it. This cannot be undone.`,
      confirmLabel: 'Delete',
      onConfirm: async () => {
        await deleteEndpoint(id);
        navigate('/webhooks', { replace: true });
      },
      onCancel: () => navigate(`/webhooks/${id}`, { replace: true }),
    });
  }, [loaded, endpoint, id]);

  return (
    <>
      <PageHeading>Delete Webhook Endpoint</PageHeading>
      {!loaded && <CircularProgress aria-label="Loading the endpoint" />}
    </>
  );
}

export default function WebhookPage({ resource }: PageProps) {
  if (!resource) return <Navigate to="/error/404" replace />;
  const [id] = resource.ids;
  switch (resource.mode) {
    case 'create':
      return resource.ids.length === 0 ? <WebhookEditor /> : <Navigate to="/error/404" replace />;
    case 'edit':
      return id !== undefined && resource.ids.length === 1 ? (
        <WebhookEditor key={id} id={id} />
      ) : (
        <Navigate to="/error/404" replace />
      );
    case 'delete':
      return id !== undefined && resource.ids.length === 1 ? (
        <DeleteEndpoint key={id} id={id} />
      ) : (
        <Navigate to="/error/404" replace />
      );
    case 'view':
      if (resource.ids.length > 1) {
        return (
          <ResourceList<WebhookEndpoint>
            plural="Webhook Endpoints"
            area="webhooks"
            ids={resource.ids}
            path={WEBHOOKS_PATH}
            href={(e) => `/webhooks/${e.id}`}
            name={(e) => e.url}
            columns={[
              { label: 'Description', value: (e) => e.description },
              { label: 'Status', value: (e) => endpointStatus(e) },
            ]}
          />
        );
      }
      return id !== undefined ? <WebhookView key={id} id={id} /> : <Navigate to="/error/404" replace />;
    default:
      return <Navigate to="/error/404" replace />;
  }
}
