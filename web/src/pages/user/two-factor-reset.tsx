/**
 * A root operator's view of someone's two-factor sign-in on their page (decision 0063): on since when, or off, and
 * a Reset for a user who lost their device, after a confirmation. The same reset as `tessera user reset-2fa`.
 */
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import Button from '@mui/material/Button';
import { formatDate } from '@tessera/common/dates';
import { type OperatorTwoFactorStatus, TWO_FACTOR_PATHS } from '@tessera/common/two-factor';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';
import { confirmInDialog } from '../confirm-dialog';

/** The user's two-factor status, for a root viewer only (null while loading, or for anyone else). */
export function useOperatorTwoFactor(userId: number, asRoot: boolean) {
  const [status, setStatus] = useState<OperatorTwoFactorStatus | 'unknown' | null>(null);
  const load = useCallback(async () => {
    if (!asRoot) return;
    try {
      const reply = await api.get<{ twoFactor: OperatorTwoFactorStatus }>(TWO_FACTOR_PATHS.reset(userId));
      setStatus(reply.twoFactor);
    } catch {
      setStatus('unknown'); // the API client has shown the error
    }
  }, [userId, asRoot]);
  useEffect(() => {
    void load();
  }, [load]);
  return { status, reload: load };
}

export function twoFactorText(status: OperatorTwoFactorStatus | 'unknown' | null): string {
  if (status === null) return 'Loading';
  if (status === 'unknown') return 'Unknown: it could not be read';
  return status.enabled && status.enabledAt ? `On since ${formatDate(status.enabledAt)}` : 'Off';
}

export function ResetTwoFactorButton(props: { userId: number; who: string; onReset(): void }) {
  const ask = () =>
    confirmInDialog({
      title: 'Reset Two-Factor Sign-In',
      text: (
        <>
          Turn off two-factor sign-in for <strong>{props.who}</strong>? Their recovery codes stop working, and they sign
          in with their password alone until they turn it on again. Do this only when you are sure who asked.
        </>
      ),
      confirmLabel: 'Reset',
      onConfirm: async () => {
        // Whatever the answer (another root may have reset it already), the page shows the state as it now is.
        await api.del(TWO_FACTOR_PATHS.reset(props.userId)).catch((error: unknown) => {
          props.onReset();
          throw error;
        });
        useStore.getState().addAlert({
          type: 'success',
          title: 'Two-factor sign-in reset',
          text: `Two-factor sign-in is off for ${props.who}.`,
        });
        props.onReset();
      },
    });
  return (
    <Button color="warning" startIcon={<PhonelinkEraseIcon />} onClick={ask}>
      Reset Two-Factor
    </Button>
  );
}
