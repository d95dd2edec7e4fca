/** Lifting a suppression, in the shell's dialog area: a reason is required, and the server audits it. */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { STEWARDSHIP_LIMITS, STEWARDSHIP_MESSAGES, type Suppression } from '@tessera/common/stewardship';
import { type FormEvent, useState } from 'react';
import { request } from '../../../lib/api';
import { useStore } from '../../../lib/store';

function LiftForm({ suppression, onLifted }: { suppression: Suppression; onLifted: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function lift(event: FormEvent) {
    event.preventDefault();
    if (reason.trim() === '') {
      setError(STEWARDSHIP_MESSAGES.reason);
      return;
    }
    setBusy(true);
    try {
      await request('DELETE', `/v2/suppressions/${suppression.id}`, { body: { reason: reason.trim() } });
      onLifted();
      useStore.getState().addAlert({ type: 'success', title: STEWARDSHIP_MESSAGES.liftedTitle, text: '' });
    } catch {
      // The API client has shown the error.
    }
    useStore.getState().closeDialog();
  }

  return (
    <Stack component="form" spacing={2} sx={{ maxWidth: 560 }} onSubmit={lift} noValidate>
      <Typography>
        Lookups will find this {suppression.kind} ({suppression.value}) again. Say why; the reason is kept in the audit
        log.
      </Typography>
      <TextField
        label="Reason"
        value={reason}
        onChange={(e) => {
          setReason(e.target.value);
          setError('');
        }}
        required
        multiline
        minRows={2}
        error={error !== ''}
        helperText={error || ' '}
        slotProps={{ htmlInput: { maxLength: STEWARDSHIP_LIMITS.reason } }}
      />
      <Stack direction="row" spacing={2}>
        <Button type="submit" variant="contained" color="error" disabled={busy}>
          Lift suppression
        </Button>
        <Button onClick={() => useStore.getState().closeDialog()} disabled={busy}>
          Cancel
        </Button>
      </Stack>
    </Stack>
  );
}

export function liftDialog(suppression: Suppression, onLifted: () => void): void {
  useStore.getState().openDialog({
    title: 'Lift Suppression',
    content: <LiftForm suppression={suppression} onLifted={onLifted} />,
  });
}
