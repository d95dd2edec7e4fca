/**
 * Two-factor sign-in on the profile (issue 32 item 9, decision 0063): whether it is on, turning it on (the
 * enrolment dialog, opened by itself at `?twoFactor=enrol`, where staff are sent when their role requires it), new
 * recovery codes and turning it off, each after a code or the password.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { TWO_FACTOR_MESSAGES, TWO_FACTOR_PATHS, type TwoFactorStatus } from '@tessera/common/two-factor';
import { useCallback, useEffect, useState } from 'react';
import { usePageModel } from '../../app/use-page-model';
import { request } from '../../lib/api';
import { useStore } from '../../lib/store';
import { EnrolDialog } from './enrol-dialog';
import { type Proof, ProofDialog, RecoveryCodes } from './recovery-codes';

type Open = 'enrol' | 'disable' | 'renew' | null;

const OFF_TEXT = 'Off. Turn it on to be asked for a code from an authenticator app after your password.';

export function TwoFactorSection() {
  const [model, setModel] = usePageModel();
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);

  const load = useCallback(() => {
    request<{ twoFactor: TwoFactorStatus }>('GET', TWO_FACTOR_PATHS.status, { merge: false }).then(
      (reply) => setStatus(reply.twoFactor),
      () => {}, // alerted by the API client
    );
  }, []);
  useEffect(load, [load]);

  // Sent here to turn it on: the dialog opens once the status says it is off.
  useEffect(() => {
    if (model.twoFactor !== 'enrol' || !status) return;
    if (!status.enabled) setOpen('enrol');
    setModel({ twoFactor: '' });
  }, [model.twoFactor, status, setModel]);

  async function disable(proof: Proof) {
    const reply = await request<{ twoFactor: TwoFactorStatus }>('POST', TWO_FACTOR_PATHS.disable, {
      body: proof,
      merge: false,
    });
    setStatus(reply.twoFactor);
    setOpen(null);
    useStore.getState().addAlert({ type: 'success', title: 'Two-factor sign-in', text: 'Two-factor sign-in is off.' });
  }

  async function renew(proof: Proof) {
    const reply = await request<{ recoveryCodes: string[] }>('POST', TWO_FACTOR_PATHS.recoveryCodes, {
      body: proof,
      merge: false,
    });
    setOpen(null);
    setNewCodes(reply.recoveryCodes);
    load();
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="two-factor-heading">
      <Typography variant="h6" component="h2" id="two-factor-heading" gutterBottom>
        Two-factor sign-in
      </Typography>
      {status?.required && !status.enabled && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="two-factor-required">
          {TWO_FACTOR_MESSAGES.required}
        </Alert>
      )}
      {!status && (
        // The same height before the status arrives, so nothing below moves (an anchor such as #sessions stays put).
        <Stack spacing={2} sx={{ alignItems: 'flex-start', visibility: 'hidden' }} aria-hidden>
          <Typography>{OFF_TEXT}</Typography>
          <Button variant="contained" tabIndex={-1}>
            Turn on two-factor sign-in
          </Button>
        </Stack>
      )}
      {status && (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography data-testid="two-factor-status">
            {status.enabled
              ? `On since ${formatDate(status.enabledAt ?? '')}. ${status.recoveryCodesLeft} of 10 recovery codes left.`
              : OFF_TEXT}
          </Typography>
          {status.enabled ? (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <Button variant="outlined" onClick={() => setOpen('renew')}>
                New recovery codes
              </Button>
              {!status.required && (
                <Button variant="outlined" color="error" onClick={() => setOpen('disable')}>
                  Turn off
                </Button>
              )}
            </Stack>
          ) : (
            <Button variant="contained" onClick={() => setOpen('enrol')}>
              Turn on two-factor sign-in
            </Button>
          )}
        </Stack>
      )}
      <EnrolDialog
        open={open === 'enrol'}
        onClose={() => {
          setOpen(null);
          load();
        }}
      />
      <ProofDialog
        open={open === 'disable'}
        title="Turn off two-factor sign-in"
        actionLabel="Turn off"
        action={disable}
        onClose={() => setOpen(null)}
      />
      <ProofDialog
        open={open === 'renew'}
        title="New recovery codes"
        actionLabel="Make new codes"
        action={renew}
        onClose={() => setOpen(null)}
      />
      <Dialog
        open={newCodes !== null}
        onClose={() => setNewCodes(null)}
        aria-labelledby="new-codes-title"
        maxWidth="sm"
        fullWidth
      >
        <DialogTitle id="new-codes-title">Your new recovery codes</DialogTitle>
        <DialogContent>{newCodes && <RecoveryCodes codes={newCodes} />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setNewCodes(null)}>Done</Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}
