/** A user's details, with Edit, Delete and Impersonate offered only when common/roles.ts allows them. */
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import SupervisorAccountIcon from '@mui/icons-material/SupervisorAccount';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { formatDate } from '@tessera/common/dates';
import { seesKeysOf } from '@tessera/common/key-settings';
import { RESOURCE_PATHS, type UserEntry } from '@tessera/common/resources';
import { canDeleteUser, canEditUser, canImpersonate, ROLE_LABEL } from '@tessera/common/roles';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useItem } from '../../lib/collections';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { DetailList } from '../detail-list';
import { KeysSection } from '../keys/keys-table';
import { PageHeading } from '../page-heading';
import { yesNo } from '../yes-no';
import { ResetTwoFactorButton, twoFactorText, useOperatorTwoFactor } from './two-factor-reset';
import { askToDeleteUser, impersonate, organizationPath } from './user-actions';

export function UserView({ id, deleting = false }: { id: number; deleting?: boolean }) {
  const self = useStore((s) => s.self);
  const user = useItem<UserEntry>('users', id);
  const [busy, setBusy] = useState(false);
  const asked = useRef(false);
  const asRoot = self.role === 'root';
  const twoFactor = useOperatorTwoFactor(id, asRoot);

  useFetch(`${RESOURCE_PATHS.users}/${id}`);

  // At /users/delete/{id} the confirmation opens once the user is known, if they may be deleted.
  useEffect(() => {
    if (!deleting || !user || asked.current) return;
    asked.current = true;
    if (!canDeleteUser(self, user)) navigate('/error/403', { replace: true });
    else askToDeleteUser(user, () => navigate(`/users/${id}`, { replace: true }));
  }, [deleting, user, self, id]);

  if (!user) return <CircularProgress aria-label="Loading the user" />;
  // Impersonations do not nest (decision 0006), so it is not offered while impersonating.
  const mayImpersonate = canImpersonate(self, user) && self.impersonator === undefined;
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <PageHeading>{user.name || user.email}</PageHeading>
        <Stack direction="row" sx={{ mb: 2, flexWrap: 'wrap', gap: 1 }}>
          {canEditUser(self, user) && (
            <Button component={RouterLink} to={`/users/edit/${id}`} startIcon={<EditIcon />}>
              Edit
            </Button>
          )}
          {mayImpersonate && (
            <Button
              startIcon={<SupervisorAccountIcon />}
              disabled={busy}
              onClick={() => {
                setBusy(true);
                impersonate(id).catch(() => setBusy(false)); // alerted by the client
              }}
            >
              Impersonate
            </Button>
          )}
          {asRoot && id !== self.id && typeof twoFactor.status === 'object' && twoFactor.status?.enabled && (
            <ResetTwoFactorButton userId={id} who={user.name || user.email} onReset={() => void twoFactor.reload()} />
          )}
          {canDeleteUser(self, user) && (
            <Button color="error" startIcon={<DeleteIcon />} onClick={() => askToDeleteUser(user)}>
              Delete
            </Button>
          )}
        </Stack>
      </Box>
      <DetailList
        items={[
          ['Name', user.name],
          ['Title', user.title],
          ['E-mail', user.email],
          ['Role', ROLE_LABEL[user.role]],
          [
            'Organization',
            user.organizationId === null ? (
              'None'
            ) : (
              <Link key="organization" component={RouterLink} to={organizationPath(user)}>
                {user.organizationName || `Organization ${user.organizationId}`}
              </Link>
            ),
          ],
          ['Active', yesNo(user.isActive)],
          ['Verified', user.verifiedAt ? `Yes, ${formatDate(user.verifiedAt)}` : 'No'],
          ...(asRoot ? [['Two-factor sign-in', twoFactorText(twoFactor.status)] as [string, string]] : []),
        ]}
      />
      {seesKeysOf(self, user) && <KeysSection userId={user.id} mayAdd={user.id === self.id} />}
    </>
  );
}
