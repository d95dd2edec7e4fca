/**
 * A Keys section (issue 15): the keys of a user (their page) or of an organization (its page) as the server lets
 * the signed-in user see them, kept current by the socket's pushes. Several may be chosen and revoked at once.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
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
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { type KeyEntry, type KeyState, keyStates } from '@tessera/common/key-settings';
import type { UserEntry } from '@tessera/common/resources';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useStore } from '../../lib/store';
import { useFetchState } from '../../lib/use-fetch';
import { ListStatusRow } from '../empty-row';
import { usePaging } from '../table-pager';
import { KEYS_PATH } from './key-api';

const STATE_COLOR: Record<KeyState, 'success' | 'warning' | 'info' | 'error' | 'default'> = {
  active: 'success',
  'expiring soon': 'warning',
  expired: 'error',
  'in grace': 'info',
  revoked: 'error',
  'legacy-signed': 'warning',
  test: 'info',
};

export function KeyStates({ entry }: { entry: KeyEntry }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
      {keyStates(entry).map((state) => (
        <Chip key={state} label={state} size="small" color={STATE_COLOR[state]} variant="outlined" />
      ))}
    </Stack>
  );
}

const numberFormat = new Intl.NumberFormat('en-US');

/** What a test key shows for its use: the sandbox keeps no usage. */
export const NOT_METERED = 'Not metered (test key)';

/** 'Never', a date, or '' when the server does not say. */
export const lastUsed = (key: KeyEntry) =>
  key.mode === 'test'
    ? NOT_METERED
    : key.lastUsedAt === undefined
      ? ''
      : key.lastUsedAt === null
        ? 'Never'
        : formatDate(key.lastUsedAt);

export const callsThisMonth = (key: KeyEntry) =>
  key.mode === 'test' ? NOT_METERED : key.callsThisMonth === undefined ? '' : numberFormat.format(key.callsThisMonth);

/** The live keys in the store, oldest first, of one user or one organization. */
export function useKeys(filter: { userId?: number; organizationId?: number }): KeyEntry[] {
  const items = useStore((s) => s.areas.keys) as Record<string, KeyEntry> | undefined;
  const { userId, organizationId } = filter;
  return useMemo(
    () =>
      Object.values(items ?? {})
        .filter((k) => !k.deletedAt)
        .filter((k) => userId === undefined || k.userId === userId)
        .filter((k) => organizationId === undefined || k.organizationId === organizationId)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)),
    [items, userId, organizationId],
  );
}

function ownerName(users: Record<string, UserEntry> | undefined, userId: number): string {
  const user = users?.[String(userId)];
  return user ? user.name || user.email : `User ${userId}`;
}

export function KeysSection({
  userId,
  organizationId,
  mayAdd,
}: {
  userId?: number;
  organizationId?: number;
  /** Whether the New Key button shows: keys are made for oneself. */
  mayAdd: boolean;
}) {
  const list = useFetchState(KEYS_PATH);
  const keys = useKeys({ userId, organizationId });
  const users = useStore((s) => s.areas.users) as Record<string, UserEntry> | undefined;
  const { visible, pager } = usePaging(keys);
  const [chosen, setChosen] = useState<string[]>([]);
  const live = chosen.filter((id) => keys.some((k) => k.id === id));
  const showOwner = organizationId !== undefined;
  const columns = showOwner ? 10 : 9;
  const toggle = (id: string) => setChosen(live.includes(id) ? live.filter((c) => c !== id) : [...live, id]);
  return (
    <section aria-labelledby="keys-heading" id="keys">
      <Typography variant="h5" component="h2" id="keys-heading" sx={{ mt: 4, mb: 1 }}>
        API Keys
      </Typography>
      <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
        {mayAdd && (
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/keys/add">
            New Key
          </Button>
        )}
        <Button
          color="error"
          startIcon={<DeleteIcon />}
          disabled={live.length === 0}
          component={RouterLink}
          to={`/keys/delete/${live.join(',')}`}
        >
          Revoke Selected
        </Button>
      </Stack>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="API keys">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  slotProps={{ input: { 'aria-label': 'Choose every key' } }}
                  checked={keys.length > 0 && live.length === keys.length}
                  indeterminate={live.length > 0 && live.length < keys.length}
                  onChange={(e) => setChosen(e.target.checked ? keys.map((k) => k.id) : [])}
                />
              </TableCell>
              <TableCell>Name</TableCell>
              {showOwner && <TableCell>User</TableCell>}
              <TableCell>Key ID</TableCell>
              <TableCell>Last Four</TableCell>
              <TableCell>Created</TableCell>
              <TableCell>Expires</TableCell>
              <TableCell>Last Used</TableCell>
              <TableCell align="right">Calls This Month</TableCell>
              <TableCell>State</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((key) => (
              <TableRow key={key.id} data-testid="key-row" data-key-id={key.id}>
                <TableCell padding="checkbox">
                  <Checkbox
                    slotProps={{ input: { 'aria-label': `Choose ${key.name}` } }}
                    checked={live.includes(key.id)}
                    onChange={() => toggle(key.id)}
                  />
                </TableCell>
                <TableCell>
                  <Link component={RouterLink} to={`/keys/${key.id}`}>
                    {key.name}
                  </Link>
                </TableCell>
                {showOwner && (
                  <TableCell>
                    <Link component={RouterLink} to={`/users/${key.userId}`}>
                      {ownerName(users, key.userId)}
                    </Link>
                  </TableCell>
                )}
                <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{key.id}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>…{key.lastFour}</TableCell>
                <TableCell>{formatDate(key.createdAt)}</TableCell>
                <TableCell>{key.expiresAt ? formatDate(key.expiresAt) : 'Never'}</TableCell>
                <TableCell>{lastUsed(key)}</TableCell>
                <TableCell align="right">{callsThisMonth(key)}</TableCell>
                <TableCell>
                  <KeyStates entry={key} />
                </TableCell>
              </TableRow>
            ))}
            <ListStatusRow columns={columns} state={list} empty={keys.length === 0} what="the keys">
              No keys.
            </ListStatusRow>
          </TableBody>
        </Table>
        {pager}
      </TableContainer>
    </section>
  );
}
