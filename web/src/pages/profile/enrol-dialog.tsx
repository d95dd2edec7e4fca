/**
 * Turning on two-factor sign-in (decision 0063): the QR code and the same secret as text for typing in, then the
 * first code to confirm; the reply's recovery codes follow in the same dialog, shown once. Its own dialog, not the
 * shell's, so the secret and codes live only in this component's state and go when it closes.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TWO_FACTOR_PATHS, type TwoFactorEnrolment } from '@tessera/common/two-factor';
import { useEffect, useState } from 'react';
import { FormContainer, TextInput, useForm } from '../../forms';
import { request } from '../../lib/api';
import { RecoveryCodes } from './recovery-codes';

/** The secret in groups of four, as apps show it; spaces are ignored when typed in. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

function Enrol({ enrolment, onConfirmed }: { enrolment: TwoFactorEnrolment; onConfirmed: (codes: string[]) => void }) {
  const form = useForm({ code: '' });
  async function confirm(values: { code: string }) {
    const reply = await request<{ recoveryCodes: string[] }>('POST', TWO_FACTOR_PATHS.confirm, {
      body: { code: values.code.trim() },
      merge: false,
    });
    onConfirmed(reply.recoveryCodes);
  }
  return (
    <FormContainer form={form} onValid={confirm}>
      <Stack spacing={2}>
        <Typography>
          Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or
          1Password), then enter the 6-digit code it shows.
        </Typography>
        <Box
          component="img"
          src={enrolment.qrCode}
          alt="QR code to scan with your authenticator app"
          data-testid="two-factor-qr"
          sx={{ width: 200, height: 200, alignSelf: 'center', bgcolor: '#fff', borderRadius: 1 }}
        />
        <Typography variant="body2">Can't scan it? Enter this key in the app instead:</Typography>
        <Box
          component="code"
          data-testid="two-factor-secret"
          sx={{ p: 1, borderRadius: 1, bgcolor: 'action.hover', fontFamily: 'monospace', overflowWrap: 'anywhere' }}
        >
          {grouped(enrolment.secret)}
        </Box>
        <TextInput
          name="code"
          label="Code from the app"
          autoComplete="one-time-code"
          maxLength={40}
          slotProps={{ htmlInput: { inputMode: 'numeric', spellCheck: false } }}
        />
        <Button type="submit" variant="contained" disabled={form.busy} sx={{ alignSelf: 'flex-start' }}>
          Turn on
        </Button>
      </Stack>
    </FormContainer>
  );
}

export function EnrolDialog({ open, onClose }: { open: boolean; onClose: (changed: boolean) => void }) {
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!open) return;
    setEnrolment(null);
    setCodes(null);
    setFailed(false);
    request<{ enrolment: TwoFactorEnrolment }>('POST', TWO_FACTOR_PATHS.enrol, { merge: false }).then(
      (reply) => setEnrolment(reply.enrolment),
      () => setFailed(true), // alerted by the API client
    );
  }, [open]);

  const close = () => onClose(codes !== null);
  return (
    <Dialog open={open} onClose={close} aria-labelledby="two-factor-title" maxWidth="sm" fullWidth>
      <DialogTitle id="two-factor-title">
        {codes ? 'Save your recovery codes' : 'Turn on two-factor sign-in'}
      </DialogTitle>
      <DialogContent>
        {failed && <Alert severity="error">The set-up could not be started. Please try again.</Alert>}
        {!codes && enrolment && <Enrol enrolment={enrolment} onConfirmed={setCodes} />}
        {codes && <RecoveryCodes codes={codes} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{codes ? 'Done' : 'Cancel'}</Button>
      </DialogActions>
    </Dialog>
  );
}
