/** Step-up: the password again before the first query (and after ten idle minutes), then the query runs. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { ApiError, fieldErrors } from '../../lib/api';
import { confirmPassword } from './query-api';

export function StepUpDialog({
  open,
  onClose,
  onConfirmed,
}: {
  open: boolean;
  onClose: () => void;
  onConfirmed: () => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password === '') {
      setError('Please provide your password.');
      return;
    }
    setBusy(true);
    try {
      await confirmPassword(password);
      setPassword('');
      setError('');
      onConfirmed();
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setError(fieldErrors(err.body).password ?? err.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="step-up-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="step-up-title">Confirm your password</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            The query console reads production data. Please enter your password to continue; it is asked again after ten
            minutes without a query.
          </DialogContentText>
          <TextField
            autoFocus
            fullWidth
            type="password"
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={error !== ''}
            helperText={error || ' '}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Confirm
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
