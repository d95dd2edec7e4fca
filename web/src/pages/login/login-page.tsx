/**
 * Spec §2 sign-in: email, password, 'Remember me'; links to the password reset, sign-up and providers. The form
 * kit's form (spec §3 form container, §5): fields checked when left, then on input; a failed submit shows the
 * 'Validation failed.' banner; 'Remember me' is the form value 'true' or empty (spec §3 login form).
 * An account with two-factor sign-in gets the code step next (code-step.tsx), as does an outside sign-in sent back
 * here with `?twoFactor=code`.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { findProvider, PROVIDER_FAILURES, type ProviderFailure } from '@tessera/common/providers';
import { CODE_STEP_QUERY } from '@tessera/common/two-factor';
import { MAX_LENGTH } from '@tessera/common/validation';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { usePageModel } from '../../app/use-page-model';
import { CheckboxInput, FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { refreshUser } from '../../lib/session';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { PageHeading } from '../page-heading';
import { CodeStep } from './code-step';
import { ProviderButtons } from './provider-buttons';

interface LoginValues extends Record<string, string> {
  email: string;
  password: string;
  /** 'true' or empty. */
  remember: string;
}

/** An outside sign-in that came back here (`?failure=…&provider=…`) becomes an alert, once. */
function useProviderFailure(): void {
  const [model, setModel] = usePageModel();
  const { failure, provider, domain } = model;
  useEffect(() => {
    if (!failure) return;
    const found = findProvider(provider ?? '');
    const text = PROVIDER_FAILURES[failure as ProviderFailure];
    if (found && text)
      useStore.getState().addAlert({ type: 'error', title: 'Sign-in unavailable', text: text(found.name, domain) });
    setModel({ failure: '', provider: '', domain: '' });
  }, [failure, provider, domain, setModel]);
}

/** Whether the code step shows: after a right password, or when an outside sign-in sent the browser here for it. */
function useCodeStep(): [boolean, (on: boolean) => void] {
  const [model, setModel] = usePageModel();
  const [on, setOn] = useState(model.twoFactor === CODE_STEP_QUERY);
  // The query string reaches the model at navigation, which may come after the first render.
  useEffect(() => {
    if (model.twoFactor === CODE_STEP_QUERY) setOn(true);
  }, [model.twoFactor]);
  const set = (next: boolean) => {
    setOn(next);
    if (!next && model.twoFactor) setModel({ twoFactor: '' });
  };
  return [on, set];
}

export default function LoginPage() {
  useProviderFailure();
  const [codeStep, setCodeStep] = useCodeStep();
  const returnTo = useStore((s) => s.model.returnTo);
  const settings = useSettings();
  const form = useForm<LoginValues>({
    email: settings.email,
    password: '',
    remember: settings.email === '' ? '' : 'true',
  });

  async function signIn(values: LoginValues) {
    const email = values.email.trim();
    const reply = await api.post<{ location: string; twoFactor?: true }>(AUTH_PATHS.login, {
      email,
      password: values.password,
      remember: values.remember,
      returnTo,
    });
    // When remember is on, the email is kept for next time (spec §3).
    settings.update({ email: values.remember === 'true' ? email : '' });
    if (reply.twoFactor) {
      setCodeStep(true);
      return;
    }
    refreshUser();
    navigate(reply.location);
  }

  return (
    <Paper variant="outlined" sx={{ maxWidth: 420, mx: 'auto', mt: { xs: 1, sm: 6 }, p: { xs: 2, sm: 4 } }}>
      {codeStep ? (
        <CodeStep onBack={() => setCodeStep(false)} />
      ) : (
        <PasswordStep form={form} onValid={signIn} autoFocusEmail={settings.email === ''} />
      )}
    </Paper>
  );
}

function PasswordStep({
  form,
  onValid,
  autoFocusEmail,
}: {
  form: ReturnType<typeof useForm<LoginValues>>;
  onValid: (values: LoginValues) => Promise<void>;
  autoFocusEmail: boolean;
}) {
  return (
    <>
      <PageHeading>Sign in</PageHeading>
      <FormContainer form={form} onValid={onValid}>
        <Stack spacing={1}>
          <TextInput
            name="email"
            label="Email"
            type="email"
            rule="email"
            autoComplete="username"
            autoFocus={autoFocusEmail}
          />
          <TextInput
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            autoFocus={!autoFocusEmail}
            maxLength={MAX_LENGTH.password}
          />
          <Box
            sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}
          >
            <CheckboxInput name="remember" label="Remember me" />
            <Link component={RouterLink} to="/password/forgot" variant="body2">
              Forgot password?
            </Link>
          </Box>
          <Button type="submit" variant="contained" size="large" disabled={form.busy}>
            Sign in
          </Button>
        </Stack>
      </FormContainer>
      <ProviderButtons verb="Sign in with" />
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
        New to Tessera?{' '}
        <Link component={RouterLink} to="/signup">
          Sign Up
        </Link>
      </Typography>
    </>
  );
}
