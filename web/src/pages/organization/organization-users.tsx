/** The members of an organization, linking to each user; admins and above may add one. */
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { UserEntry } from '@tessera/common/resources';
import { assignableRoles, canAddUser, ROLE_LABEL } from '@tessera/common/roles';
import { Link as RouterLink } from 'react-router';
import { useStore } from '../../lib/store';
import { EmptyRow } from '../empty-row';
import { usePaging } from '../table-pager';
import { yesNo } from '../yes-no';
import { openAddUser } from './add-user-form';

export function OrganizationUsers({ organizationId, users }: { organizationId: number; users: UserEntry[] }) {
  const self = useStore((s) => s.self);
  const { visible, pager } = usePaging(users);
  const mayAdd = canAddUser(self, organizationId) && assignableRoles(self.role).length > 0;
  return (
    <>
      {mayAdd && (
        <Button
          variant="contained"
          startIcon={<PersonAddIcon />}
          sx={{ mb: 2 }}
          onClick={() => openAddUser(organizationId, self.role)}
        >
          Add User
        </Button>
      )}
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Users">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>E-mail</TableCell>
              <TableCell>Title</TableCell>
              <TableCell>Role</TableCell>
              <TableCell>Active</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((user) => (
              <TableRow key={user.id} data-testid="user-row">
                <TableCell>
                  <Link component={RouterLink} to={`/users/${user.id}`}>
                    {user.name || user.email}
                  </Link>
                </TableCell>
                <TableCell>{user.email}</TableCell>
                <TableCell>{user.title}</TableCell>
                <TableCell>{ROLE_LABEL[user.role]}</TableCell>
                <TableCell>{yesNo(user.isActive)}</TableCell>
              </TableRow>
            ))}
            {users.length === 0 && <EmptyRow columns={5}>No users.</EmptyRow>}
          </TableBody>
        </Table>
        {pager}
      </TableContainer>
    </>
  );
}
