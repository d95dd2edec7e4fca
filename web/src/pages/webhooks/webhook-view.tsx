/**
 * One endpoint (/webhooks/{id}): its settings and state, with Edit, Send Test Event, Rotate Secret (the new secret
 * shown once, the previous one still signing until the overlap ends), Enable or Disable, and Delete; then its
 * delivery log.
 */
import AutorenewIcon from '@mui/icons-material/Autorenew';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { type Organization, RESOURCE_PATHS } from '@tessera/common/resources';
import { canManageOrganizations } from '@tessera/common/roles';
import { WEBHOOK_HEADERS, WEBHOOK_PATHS, type WebhookEndpoint } from '@tessera/common/webhooks';
import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useItem } from '../../lib/collections';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { DetailList } from '../detail-list';
import { PageHeading } from '../page-heading';
import { DeliveryLogTable } from './delivery-log';
import { SecretDialog } from './secret-dialog';
import { useDeliveryLog } from './use-delivery-log';
import {
  type NewSecret,
  replayDelivery,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
  useEndpoint,
} from './webhook-api';
import { endpointStatus } from './webhook-status';
import { EventList } from './webhooks-table';

function RotateDialog({
  endpoint,
  open,
  onClose,
  onRotated,
}: {
  endpoint: WebhookEndpoint;
  open: boolean;
  onClose: () => void;
  onRotated: (shown: NewSecret) => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby="rotate-webhook-title">
      <DialogTitle id="rotate-webhook-title">Rotate the signing secret</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {endpoint.url} gets a new signing secret, shown once. For a while the previous secret keeps working: each
          delivery's {WEBHOOK_HEADERS.signature} header carries a signature by both, so your receiver can change over
          without missing a delivery.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            rotateSecret(endpoint.id).then(
              (shown) => {
                setBusy(false);
                onRotated(shown);
              },
              () => setBusy(false), // alerted by the client
            );
          }}
        >
          Rotate Secret
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Runs an action once at a time; its failure was alerted by the API client. */
function useAction(): [busy: boolean, run: (action: () => Promise<unknown>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
    } catch {
      // Shown by the API client's alert.
    } finally {
      setBusy(false);
    }
  };
  return [busy, run];
}

export function WebhookView({ id }: { id: number }) {
  const endpoint = useEndpoint(id);
  const self = useStore((s) => s.self);
  const anywhere = canManageOrganizations(self.role);
  const organization = useItem<Organization>('organizations', endpoint?.organizationId);
  useFetch(WEBHOOK_PATHS.endpoint(id));
  useFetch(anywhere && endpoint && !organization ? `${RESOURCE_PATHS.organizations}/${endpoint.organizationId}` : null);
  const log = useDeliveryLog(id, endpoint?.enabled);
  const [rotating, setRotating] = useState(false);
  const [shown, setShown] = useState<NewSecret | null>(null);
  const [busy, run] = useAction();

  const seen = useRef(false);
  if (endpoint) seen.current = true;
  // Deleted here or in another tab (the socket's push removes it from the store).
  if (!endpoint && seen.current) {
    return (
      <>
        <PageHeading>Webhook Endpoint</PageHeading>
        <Alert severity="info" data-testid="webhook-gone">
          This endpoint has been deleted.{' '}
          <Link component={RouterLink} to="/webhooks">
            All endpoints
          </Link>
        </Alert>
      </>
    );
  }
  if (!endpoint) return <CircularProgress aria-label="Loading the endpoint" />;

  const sendTest = () =>
    run(async () => {
      await sendTestEvent(id);
      log.refresh();
    });
  const setEnabled = (enabled: boolean) => run(() => updateEndpoint(id, { enabled }));

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <PageHeading>Webhook Endpoint</PageHeading>
        <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
          <Button component={RouterLink} to={`/webhooks/edit/${id}`} startIcon={<EditIcon />}>
            Edit
          </Button>
          <Button startIcon={<SendIcon />} onClick={() => void sendTest()} disabled={busy || !endpoint.enabled}>
            Send Test Event
          </Button>
          <Button startIcon={<AutorenewIcon />} onClick={() => setRotating(true)} disabled={busy}>
            Rotate Secret
          </Button>
          {endpoint.enabled ? (
            <Button onClick={() => void setEnabled(false)} disabled={busy}>
              Disable
            </Button>
          ) : (
            <Button variant="contained" onClick={() => void setEnabled(true)} disabled={busy}>
              Enable
            </Button>
          )}
          <Button color="error" startIcon={<DeleteIcon />} component={RouterLink} to={`/webhooks/delete/${id}`}>
            Delete
          </Button>
        </Stack>
      </Box>
      {!endpoint.enabled && (
        <Alert severity={endpoint.disabledReason === 'failures' ? 'error' : 'info'} sx={{ mb: 2 }}>
          {endpointStatus(endpoint)}. Nothing is sent to it until it is enabled; deliveries due meanwhile wait, and go
          out once it is.
        </Alert>
      )}
      <DetailList
        items={[
          ['URL', <code key="url">{endpoint.url}</code>],
          ['Description', endpoint.description || 'None'],
          ...(anywhere
            ? [['Organization', organization?.name ?? `Organization ${endpoint.organizationId}`] as [string, string]]
            : []),
          ['Events', <EventList key="events" events={endpoint.events} />],
          [
            'Status',
            <span key="status" data-testid="endpoint-status">
              {endpointStatus(endpoint)}
            </span>,
          ],
          ['Failures in a row', endpoint.consecutiveFailures.toLocaleString('en-US')],
          [
            'Previous secret',
            endpoint.previousSecretValidUntil
              ? `Still signs deliveries until ${formatDate(endpoint.previousSecretValidUntil)}`
              : 'None',
          ],
          ['Created', formatDate(endpoint.createdAt)],
          ['Changed', formatDate(endpoint.updatedAt)],
        ]}
      />
      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 1 }} id="deliveries-heading">
        Delivery Log
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Newest first. A replay sends the same message again, with the same {WEBHOOK_HEADERS.id}, so a receiver that
        already has it can drop it.
      </Typography>
      <DeliveryLogTable
        log={log}
        endpointEnabled={endpoint.enabled}
        onReplay={(delivery) =>
          run(async () => {
            await replayDelivery(id, delivery.id);
            log.refresh();
          })
        }
      />
      <RotateDialog
        endpoint={endpoint}
        open={rotating}
        onClose={() => setRotating(false)}
        onRotated={(made) => {
          setRotating(false);
          setShown(made);
        }}
      />
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </>
  );
}
