/**
 * One key (/keys/{id}): its settings and use, with Edit, Rotate (choosing the grace for the old secret; the new
 * key is shown once) and Revoke.
 */
import AutorenewIcon from '@mui/icons-material/Autorenew';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
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
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { formatDate } from '@tessera/common/dates';
import { GRACE_CHOICES, type KeyEntry } from '@tessera/common/key-settings';
import { TEST_KEY_PREFIX } from '@tessera/common/keys';
import type { UserEntry } from '@tessera/common/resources';
import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { DetailList } from '../detail-list';
import { PageHeading } from '../page-heading';
import { KEYS_PATH, type NewKey, rotateKey } from './key-api';
import { callsThisMonth, KeyStates, lastUsed } from './keys-table';
import { SecretDialog } from './secret-dialog';

function RotateDialog({
  entry,
  open,
  onClose,
  onRotated,
}: {
  entry: KeyEntry;
  open: boolean;
  onClose: () => void;
  onRotated: (key: NewKey) => void;
}) {
  const [grace, setGrace] = useState<number>(GRACE_CHOICES[1].seconds);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby="rotate-title">
      <DialogTitle id="rotate-title">Rotate {entry.name}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          The key gets a new secret, shown once. Clients using the old one keep working during the grace period.
        </DialogContentText>
        <TextField
          select
          fullWidth
          label="Grace period for the old secret"
          value={grace}
          onChange={(e) => setGrace(Number(e.target.value))}
        >
          {GRACE_CHOICES.map((c) => (
            <MenuItem key={c.seconds} value={c.seconds}>
              {c.label}
            </MenuItem>
          ))}
        </TextField>
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
            rotateKey(entry.id, grace).then(
              (key) => {
                setBusy(false);
                onRotated(key);
              },
              () => setBusy(false), // alerted by the client
            );
          }}
        >
          Rotate
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function KeyView({ id }: { id: string }) {
  const key = useStore((s) => (s.areas.keys as Record<string, KeyEntry> | undefined)?.[id]);
  const self = useStore((s) => s.self);
  const owner = useStore((s) =>
    key ? (s.areas.users as Record<string, UserEntry> | undefined)?.[String(key.userId)] : undefined,
  );
  const ownerId = key?.userId;
  // Whoever may see a key may see its user (the same rule, decision 0007); one's own is already known.
  useFetch(ownerId === undefined || ownerId === self.id || owner ? null : `/v2/users/${ownerId}`);
  const [rotating, setRotating] = useState(false);
  const [newKey, setNewKey] = useState<NewKey | null>(null);
  useFetch(`${KEYS_PATH}/${id}`);

  const seen = useRef(false);
  if (key) seen.current = true;
  // Revoked here or in another tab (the socket's push removes it from the store).
  if (!key && seen.current) {
    return (
      <>
        <PageHeading>API Key</PageHeading>
        <Alert severity="info" data-testid="key-gone">
          This key has been revoked.{' '}
          <Link component={RouterLink} to={`/users/${self.id}#keys`}>
            Your keys
          </Link>
        </Alert>
      </>
    );
  }
  if (!key) return <CircularProgress aria-label="Loading the key" />;
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <PageHeading>{key.name}</PageHeading>
        <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap' }}>
          <Button component={RouterLink} to={`/keys/edit/${id}`} startIcon={<EditIcon />}>
            Edit
          </Button>
          <Button startIcon={<AutorenewIcon />} onClick={() => setRotating(true)}>
            Rotate
          </Button>
          <Button color="error" startIcon={<DeleteIcon />} component={RouterLink} to={`/keys/delete/${id}`}>
            Revoke
          </Button>
        </Stack>
      </Box>
      <DetailList
        items={[
          ['Key ID', <code key="id">{key.mode === 'test' ? `${TEST_KEY_PREFIX}${key.id}` : key.id}</code>],
          ['Mode', key.mode === 'test' ? 'Test: answers from the sandbox, free' : 'Live: real people, metered'],
          ['Secret', `…${key.lastFour}`],
          ['State', <KeyStates key="state" entry={key} />],
          [
            'User',
            <Link key="user" component={RouterLink} to={`/users/${key.userId}`}>
              {key.userId === self.id
                ? self.name || self.email
                : owner
                  ? owner.name || owner.email
                  : `User ${key.userId}`}
            </Link>,
          ],
          ['Created', formatDate(key.createdAt)],
          ['Expires', key.expiresAt ? formatDate(key.expiresAt) : 'Never'],
          ['Old secret valid until', key.previousValidUntil ? formatDate(key.previousValidUntil) : 'Not in grace'],
          ['Last used', lastUsed(key) || 'Not known'],
          ['Calls this month', callsThisMonth(key) || 'Not known'],
          ['IP allowlist', key.ipAllowlist.length ? key.ipAllowlist.join(', ') : 'Anywhere'],
          [
            'Rate limit',
            key.rateLimit === null ? "The organization's" : `${key.rateLimit.toLocaleString('en-US')} a minute`,
          ],
          ['Record types', key.allowedRecordTypes.length ? key.allowedRecordTypes.join(', ') : "All of the user's"],
          ['Legacy MD5 signing', key.legacy ? 'On' : 'Off'],
        ]}
      />
      <RotateDialog
        entry={key}
        open={rotating}
        onClose={() => setRotating(false)}
        onRotated={(made) => {
          setRotating(false);
          setNewKey(made);
        }}
      />
      <SecretDialog newKey={newKey} rotated onClose={() => setNewKey(null)} />
    </>
  );
}
