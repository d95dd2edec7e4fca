/** Ends one session. Ending the caller's own signs this browser out, so that one asks first. */
import Button from '@mui/material/Button';
import { RESOURCE_PATHS, type SessionEntry } from '@tessera/common/resources';
import { useState } from 'react';
import { api } from '../../lib/api';
import { confirmInDialog } from '../confirm-dialog';

export function RevokeButton({ session }: { session: SessionEntry }) {
  const [busy, setBusy] = useState(false);
  const revoke = () => api.del(`${RESOURCE_PATHS.sessions}/${session.id}`);
  const label = `Revoke the session of ${session.userName || session.userEmail}`;
  return (
    <Button
      size="small"
      color="error"
      variant="outlined"
      disabled={busy}
      aria-label={label}
      onClick={() => {
        if (session.current) {
          confirmInDialog({
            title: 'Revoke Session',
            text: 'This is the session you are using now. Revoking it signs you out.',
            confirmLabel: 'Revoke',
            onConfirm: revoke,
          });
          return;
        }
        setBusy(true);
        revoke().catch(() => setBusy(false)); // alerted by the client; on success the row goes away
      }}
    >
      Revoke
    </Button>
  );
}
