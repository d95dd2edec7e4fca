/**
 * Organizations (spec §2, decision 0007): super+ see every organization and may add, edit and delete them; an
 * admin or user sees their own, which an admin may edit.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { type Organization, RESOURCE_PATHS } from '@tessera/common/resources';
import { canEditOrganization, canManageOrganizations } from '@tessera/common/roles';
import { Link as RouterLink } from 'react-router';
import { byName, useCollection } from '../../lib/collections';
import { useStore } from '../../lib/store';
import { useFetchState } from '../../lib/use-fetch';
import { ListStatusRow } from '../empty-row';
import { askToDeleteOrganization } from '../organization/delete-organization';
import { PageHeading } from '../page-heading';
import { usePaging } from '../table-pager';
import { yesNo } from '../yes-no';

export default function OrganizationsPage() {
  const self = useStore((s) => s.self);
  const all = useCollection<Organization>('organizations', byName);
  const manage = canManageOrganizations(self.role);
  const rows = manage ? all : all.filter((o) => o.id === self.organizationId);
  const { visible, pager } = usePaging(rows);

  const list = useFetchState(RESOURCE_PATHS.organizations);

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <PageHeading>Organizations</PageHeading>
        {manage && (
          <Button component={RouterLink} to="/organizations/add" variant="contained" startIcon={<AddIcon />}>
            Add Organization
          </Button>
        )}
      </Box>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Organizations">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>E-mail domain</TableCell>
              <TableCell>Accepts users</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((org) => (
              <TableRow key={org.id} data-testid="organization-row">
                <TableCell>
                  <Link component={RouterLink} to={`/organizations/${org.id}`}>
                    {org.name}
                  </Link>
                </TableCell>
                <TableCell>{org.emailDomain ?? ''}</TableCell>
                <TableCell>{yesNo(org.acceptUsers)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {canEditOrganization(self, org.id) && (
                    <Tooltip title="Edit">
                      <IconButton
                        component={RouterLink}
                        to={`/organizations/edit/${org.id}`}
                        aria-label={`Edit ${org.name}`}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  {manage && (
                    <Tooltip title="Delete">
                      <IconButton aria-label={`Delete ${org.name}`} onClick={() => askToDeleteOrganization(org)}>
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            ))}
            <ListStatusRow columns={4} state={list} empty={rows.length === 0} what="the organizations">
              No organizations.
            </ListStatusRow>
          </TableBody>
        </Table>
        {pager}
      </TableContainer>
    </>
  );
}
