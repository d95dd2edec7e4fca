/**
 * A confirmation in the shell's dialog area (spec §2, §4): Cancel (or its `dismissLabel`) closes it and runs `onCancel`; the confirm
 * button runs the action and closes it. A failed action closes it too, without `onCancel`, so the page stays
 * where the client's error alert shows.
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { ApiError } from '../lib/api';
import { useStore } from '../lib/store';

export interface Confirmation {
  title: string;
  text: ReactNode;
  confirmLabel: string;
  /** The label of the button that closes it without acting, when "Cancel" would read as the action (Cancel Job). */
  dismissLabel?: string;
  onConfirm: () => Promise<unknown>;
  onCancel?: () => void;
}

function ConfirmContent({
  text,
  confirmLabel,
  dismissLabel,
  run,
}: {
  text: ReactNode;
  confirmLabel: string;
  dismissLabel: string;
  run: () => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Stack spacing={3} sx={{ maxWidth: 560 }}>
      <Typography data-testid="confirm-text">{text}</Typography>
      <Stack direction="row" spacing={2}>
        <Button
          variant="contained"
          color="error"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            run();
          }}
        >
          {confirmLabel}
        </Button>
        <Button onClick={() => useStore.getState().closeDialog()} disabled={busy}>
          {dismissLabel}
        </Button>
      </Stack>
    </Stack>
  );
}

export function confirmInDialog({
  title,
  text,
  confirmLabel,
  dismissLabel = 'Cancel',
  onConfirm,
  onCancel,
}: Confirmation): void {
  let settled = false;
  const finish = () => {
    settled = true;
    useStore.getState().closeDialog();
  };
  const run = () => {
    onConfirm().then(finish, (err: unknown) => {
      finish();
      if (!(err instanceof ApiError)) throw err; // an API failure was alerted by the client
    });
  };
  useStore.getState().openDialog({
    title,
    content: <ConfirmContent text={text} confirmLabel={confirmLabel} dismissLabel={dismissLabel} run={run} />,
    onClose: () => {
      if (!settled) onCancel?.();
    },
  });
}
