/**
 * Webhooks (/webhooks; issue 33): the webhook endpoints an organization's administrators manage, kept current by the
 * socket's pushes, with New Endpoint. Super and root see every organization's, with an Organization column and a
 * filter by organization.
 */
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type Organization, RESOURCE_PATHS } from '@tessera/common/resources';
import { canManageOrganizations } from '@tessera/common/roles';
import { WEBHOOK_LIMITS } from '@tessera/common/webhooks';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { byName, useCollection } from '../../lib/collections';
import { useStore } from '../../lib/store';
import { useFetch, useFetchState } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { usePaging } from '../table-pager';
import { useEndpoints, WEBHOOKS_PATH } from './webhook-api';
import { WebhooksTable } from './webhooks-table';

const ALL = 'all';

export default function WebhooksPage() {
  const self = useStore((s) => s.self);
  const anywhere = canManageOrganizations(self.role);
  const [filter, setFilter] = useState(ALL);
  const load = useFetchState(WEBHOOKS_PATH);
  useFetch(anywhere ? RESOURCE_PATHS.organizations : null);
  const organizations = useCollection<Organization>('organizations', byName);
  const endpoints = useEndpoints(
    anywhere ? (filter === ALL ? undefined : Number(filter)) : (self.organizationId ?? -1),
  );
  const { visible, pager } = usePaging(endpoints);
  const names = new Map(organizations.map((o) => [o.id, o.name]));

  return (
    <>
      <PageHeading>Webhooks</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
        Tessera POSTs events to these URLs, each signed with the endpoint's secret (Standard Webhooks), and tries again
        with growing waits when a delivery fails. An organization can have up to{' '}
        {WEBHOOK_LIMITS.endpointsPerOrganization} endpoints.
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/webhooks/add">
          New Endpoint
        </Button>
        {anywhere && (
          <TextField
            select
            size="small"
            label="Organization"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            sx={{ minWidth: 240 }}
          >
            <MenuItem value={ALL}>All organizations</MenuItem>
            {organizations.map((o) => (
              <MenuItem key={o.id} value={String(o.id)}>
                {o.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Stack>
      <WebhooksTable
        endpoints={visible}
        load={load}
        organizationName={anywhere ? (id) => names.get(id) ?? `Organization ${id}` : undefined}
        pager={pager}
      />
    </>
  );
}
