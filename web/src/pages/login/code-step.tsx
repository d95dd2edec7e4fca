/**
 * The second step of sign-in when the account has two-factor sign-in (decision 0063): the 6-digit code from the
 * authenticator app, or a recovery code instead. A pending sign-in that expired sends the visitor back to the
 * password with an alert saying so.
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TWO_FACTOR_MESSAGES, TWO_FACTOR_PATHS } from '@tessera/common/two-factor';
import { useState } from 'react';
import { FormContainer, TextInput, useForm } from '../../forms';
import { request } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { refreshUser } from '../../lib/session';
import { useStore } from '../../lib/store';
import { PageHeading } from '../page-heading';

export function CodeStep({ onBack }: { onBack: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const form = useForm({ code: '' });

  async function verify(values: { code: string }) {
    const reply = await request<{ location: string }>('POST', TWO_FACTOR_PATHS.signIn, {
      body: { code: values.code.trim() },
      merge: false,
      claim: (status) => {
        if (status !== 401) return false;
        // The pending sign-in is gone (expired, used, or too many wrong codes): the password again.
        useStore.getState().addAlert({ type: 'error', title: 'Sign-in expired', text: TWO_FACTOR_MESSAGES.expired });
        onBack();
        return true;
      },
    });
    refreshUser();
    navigate(reply.location);
  }

  return (
    <>
      <PageHeading>Two-factor sign-in</PageHeading>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {recovery
          ? 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </Typography>
      <FormContainer form={form} onValid={verify}>
        <Stack spacing={1}>
          <TextInput
            key={recovery ? 'recovery' : 'totp'}
            name="code"
            label={recovery ? 'Recovery code' : 'Authentication code'}
            autoComplete="one-time-code"
            autoFocus
            maxLength={40}
            slotProps={{
              htmlInput: {
                inputMode: recovery ? 'text' : 'numeric',
                spellCheck: false,
              },
            }}
          />
          <Button type="submit" variant="contained" size="large" disabled={form.busy}>
            Verify
          </Button>
          <Button variant="text" onClick={() => setRecovery(!recovery)}>
            {recovery ? 'Use a code from your app instead' : 'Use a recovery code instead'}
          </Button>
          <Button variant="text" onClick={onBack}>
            Back to sign in
          </Button>
        </Stack>
      </FormContainer>
    </>
  );
}
