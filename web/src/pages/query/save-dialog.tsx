/** Names the editor's query and saves it for later. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { QUERY_LIMITS } from '@tessera/common/query-console';
import { type FormEvent, useState } from 'react';

export function SaveDialog({
  open,
  onClose,
  onSave,
}: {
  open: boolean;
  onClose: () => void;
  onSave: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') {
      setError('Please provide a name.');
      return;
    }
    await onSave(name.trim());
    setName('');
    setError('');
  }

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="save-query-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="save-query-title">Save query</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { maxLength: QUERY_LIMITS.savedNameMax } }}
            error={error !== ''}
            helperText={error || ' '}
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained">
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
