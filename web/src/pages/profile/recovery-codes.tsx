/**
 * Recovery codes, shown once (only their hashes are kept): the list, a copy button, and what they are for. Also the
 * dialog that asks for a code or the password before new codes are made or two-factor sign-in is turned off.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TWO_FACTOR_MESSAGES } from '@tessera/common/two-factor';
import { useState } from 'react';
import { FormContainer, TextInput, useForm } from '../../forms';

export function RecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  return (
    <Stack spacing={2}>
      <Alert severity="warning">
        Save these codes somewhere safe now: they will not be shown again. Each one signs you in once if you lose your
        authenticator app.
      </Alert>
      <Box
        component="ul"
        data-testid="recovery-codes"
        aria-label="Recovery codes"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          gap: 1,
          m: 0,
          p: 2,
          listStyle: 'none',
          borderRadius: 1,
          bgcolor: 'action.hover',
          fontFamily: 'monospace',
          fontSize: '1rem',
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Button
        variant="outlined"
        startIcon={<ContentCopyIcon />}
        sx={{ alignSelf: 'flex-start' }}
        onClick={() => {
          void navigator.clipboard?.writeText(codes.join('\n')).then(() => setCopied(true));
        }}
      >
        {copied ? 'Copied' : 'Copy codes'}
      </Button>
    </Stack>
  );
}

export interface Proof {
  code?: string;
  password?: string;
}

/** Asks for a code from the app, a recovery code, or the password, then runs `action` with it. */
export function ProofDialog({
  open,
  title,
  actionLabel,
  action,
  onClose,
}: {
  open: boolean;
  title: string;
  actionLabel: string;
  action: (proof: Proof) => Promise<void>;
  onClose: () => void;
}) {
  const form = useForm({ code: '', password: '' });
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="two-factor-proof-title" maxWidth="xs" fullWidth>
      <DialogTitle id="two-factor-proof-title">{title}</DialogTitle>
      <FormContainer
        form={form}
        // Neither given: the server's 400 names the code field with what to enter.
        onValid={(values) => action(values.code.trim() ? { code: values.code.trim() } : { password: values.password })}
      >
        <DialogContent>
          <Stack spacing={2}>
            <Typography variant="body2">{TWO_FACTOR_MESSAGES.proofMissing}</Typography>
            <TextInput
              name="code"
              label="Code from the app, or a recovery code"
              autoComplete="one-time-code"
              optional
              maxLength={40}
            />
            <TextInput
              name="password"
              label="Or your password"
              type="password"
              autoComplete="current-password"
              optional
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" color="error" disabled={form.busy}>
            {actionLabel}
          </Button>
        </DialogActions>
      </FormContainer>
    </Dialog>
  );
}
