/**
 * Spec §2 Sign up: Name and Email, the address checked against organizations as it is entered (§4 states),
 * 'Verify email', then the 'Verify Your Email' confirmation; the four providers as 'Sign up with …'.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Alert as AlertModel } from '@tessera/common/alerts';
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { MAX_LENGTH } from '@tessera/common/validation';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';
import { ProviderButtons } from '../login/provider-buttons';
import { PageHeading } from '../page-heading';
import { SignupSent } from './signup-sent';
import { canVerify, signupState, signupStatus } from './signup-status';
import { usePreapproval } from './use-preapproval';

const NOT_SENT_ALERT: AlertModel = {
  type: 'error',
  title: 'Email Not Sent',
  text: 'We could not send the verification email. Please check the address and try again in a few minutes.',
};

export default function SignupPage() {
  const form = useForm({ name: '', email: '' });
  const { reply, check } = usePreapproval(form.values.email);
  const [sentTo, setSentTo] = useState('');
  const email = form.values.email.trim();
  const status = signupStatus(reply, email);

  async function signUp(values: { name: string; email: string }) {
    const address = values.email.trim();
    const reply = await api.post<{ sent: boolean }>(AUTH_PATHS.signup, { name: values.name.trim(), email: address });
    // The confirmation only when the server says the mail went (spec §4: 'sent' shows it); else the form stays.
    if (reply.sent === true) setSentTo(address);
    else useStore.getState().addAlert(NOT_SENT_ALERT);
  }

  return (
    <Paper variant="outlined" sx={{ maxWidth: 460, mx: 'auto', mt: { xs: 1, sm: 6 }, p: { xs: 2, sm: 4 } }}>
      {sentTo ? (
        <SignupSent email={sentTo} />
      ) : (
        <>
          <PageHeading>Sign Up</PageHeading>
          <FormContainer form={form} onValid={signUp}>
            <Stack spacing={2}>
              <TextInput name="name" label="Name" autoComplete="name" autoFocus maxLength={MAX_LENGTH.name} />
              <TextInput
                name="email"
                label="Email"
                type="email"
                rule="email"
                autoComplete="email"
                onBlur={(event) => check(event.target.value)}
              />
              <Alert severity={status.severity} data-testid="signup-status" aria-live="polite">
                {status.text}
              </Alert>
              <Button
                type="submit"
                variant="contained"
                size="large"
                disabled={form.busy || !canVerify(signupState(reply))}
              >
                Verify email
              </Button>
            </Stack>
          </FormContainer>
          <ProviderButtons verb="Sign up with" />
        </>
      )}
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
        Already have an account?{' '}
        <Link component={RouterLink} to="/login">
          Sign in
        </Link>
      </Typography>
    </Paper>
  );
}
