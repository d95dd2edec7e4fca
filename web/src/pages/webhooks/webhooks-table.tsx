/**
 * The endpoints table (issue 33): URL (linking to the endpoint), status, events, description and failures in a row;
 * with an Organization column for super and root, who see every organization's.
 */
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { WebhookEndpoint } from '@tessera/common/webhooks';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { FetchState } from '../../lib/use-fetch';
import { ListStatusRow } from '../empty-row';
import { endpointState, endpointStatus } from './webhook-status';

const STATE_COLOR = { enabled: 'success', manual: 'default', failures: 'error' } as const;

export function EventList({ events }: { events: readonly string[] }) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {events.map((event) => (
        <Chip key={event} label={event} size="small" variant="outlined" sx={{ fontFamily: 'monospace' }} />
      ))}
    </Stack>
  );
}

export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={STATE_COLOR[endpointState(endpoint)]}
      label={endpointStatus(endpoint)}
      data-testid="endpoint-status"
    />
  );
}

export function WebhooksTable({
  endpoints,
  load,
  organizationName,
  pager,
}: {
  endpoints: WebhookEndpoint[];
  load: FetchState;
  /** Given for super and root: the Organization column's text. */
  organizationName?: (organizationId: number) => string;
  pager: ReactNode;
}) {
  const columns = organizationName ? 6 : 5;
  return (
    <TableContainer
      component={Paper}
      variant="outlined"
      tabIndex={0}
      role="region"
      aria-label="Webhook endpoints table"
    >
      <Table size="small" aria-label="Webhook endpoints">
        <TableHead>
          <TableRow>
            <TableCell>URL</TableCell>
            {organizationName && <TableCell>Organization</TableCell>}
            <TableCell>Status</TableCell>
            <TableCell>Events</TableCell>
            <TableCell>Description</TableCell>
            <TableCell align="right">Failures in a Row</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {endpoints.map((e) => (
            <TableRow key={e.id} data-testid="webhook-row" data-webhook-id={e.id}>
              <TableCell sx={{ minWidth: 200, maxWidth: 360, overflowWrap: 'anywhere' }}>
                <Link component={RouterLink} to={`/webhooks/${e.id}`} sx={{ fontFamily: 'monospace' }}>
                  {e.url}
                </Link>
              </TableCell>
              {organizationName && (
                <TableCell>
                  <Link component={RouterLink} to={`/organizations/${e.organizationId}`}>
                    {organizationName(e.organizationId)}
                  </Link>
                </TableCell>
              )}
              <TableCell>
                <EndpointStatus endpoint={e} />
              </TableCell>
              <TableCell>
                <EventList events={e.events} />
              </TableCell>
              <TableCell sx={{ minWidth: 120, maxWidth: 280 }}>{e.description}</TableCell>
              <TableCell align="right">{e.consecutiveFailures.toLocaleString('en-US')}</TableCell>
            </TableRow>
          ))}
          <ListStatusRow columns={columns} state={load} empty={endpoints.length === 0} what="the webhook endpoints">
            No webhook endpoints.
          </ListStatusRow>
        </TableBody>
      </Table>
      {pager}
    </TableContainer>
  );
}
