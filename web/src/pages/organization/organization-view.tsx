/** An organization's details and its users, with the actions the signed-in user may take. */
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { seesOrganizationKeys } from '@tessera/common/key-settings';
import { type Organization, RESOURCE_PATHS, type UserEntry } from '@tessera/common/resources';
import { canEditOrganization, canManageOrganizations } from '@tessera/common/roles';
import { useEffect, useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import { byName, useCollection, useItem } from '../../lib/collections';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { DetailList } from '../detail-list';
import { KeysSection } from '../keys/keys-table';
import { PageHeading } from '../page-heading';
import { yesNo } from '../yes-no';
import { askToDeleteOrganization } from './delete-organization';
import { OrganizationContracts } from './org-contracts';
import { OrganizationInvoices } from './org-invoices';
import { OrganizationSegments } from './org-segments';
import { OrganizationUsers } from './organization-users';
import { UsageAlertsSection } from './usage-alerts-section';

export function OrganizationView({ id, deleting = false }: { id: number; deleting?: boolean }) {
  const self = useStore((s) => s.self);
  const organization = useItem<Organization>('organizations', id);
  const users = useCollection<UserEntry>('users', byName).filter((u) => u.organizationId === id);
  const asked = useRef(false);

  useFetch(`${RESOURCE_PATHS.organizations}/${id}`);

  // At /organizations/delete/{id} the confirmation opens once the organization is known.
  useEffect(() => {
    if (!deleting || !organization || asked.current) return;
    asked.current = true;
    askToDeleteOrganization(organization, {
      onDeleted: () => navigate('/organizations'),
      onCancel: () => navigate(`/organizations/${id}`, { replace: true }),
    });
  }, [deleting, organization, id]);

  if (!organization) return <CircularProgress aria-label="Loading the organization" />;
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <PageHeading>{organization.name}</PageHeading>
        <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
          {canEditOrganization(self, id) && (
            <Button component={RouterLink} to={`/organizations/edit/${id}`} startIcon={<EditIcon />}>
              Edit
            </Button>
          )}
          {canManageOrganizations(self.role) && (
            <Button
              color="error"
              startIcon={<DeleteIcon />}
              onClick={() => askToDeleteOrganization(organization, { onDeleted: () => navigate('/organizations') })}
            >
              Delete
            </Button>
          )}
        </Stack>
      </Box>
      <DetailList
        items={[
          ['E-mail domain', organization.emailDomain ?? 'None'],
          ['Accepts new users', yesNo(organization.acceptUsers)],
        ]}
      />
      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 1 }}>
        Users
      </Typography>
      <OrganizationUsers organizationId={id} users={users} />
      {!deleting && canEditOrganization(self, id) && <OrganizationContracts organizationId={id} />}
      {seesOrganizationKeys(self, id) && <KeysSection organizationId={id} mayAdd={self.organizationId === id} />}
      {!deleting && canEditOrganization(self, id) && (
        <UsageAlertsSection key={id} organizationId={id} name={organization.name} />
      )}
      {!deleting && canEditOrganization(self, id) && <OrganizationInvoices organizationId={id} />}
      {!deleting && <OrganizationSegments organizationId={id} />}
    </>
  );
}
