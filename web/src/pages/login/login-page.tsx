/** Spec §2 sign-in: email, password, 'Remember me'; links to the password reset, sign-up and providers. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { findProvider, PROVIDER_FAILURES, type ProviderFailure } from '@tessera/common/providers';
import { isEmail, MAX_LENGTH, MESSAGES } from '@tessera/common/validation';
import { type FormEvent, useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { usePageModel } from '../../app/use-page-model';
import { ApiError, api, fieldErrors } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { refreshUser } from '../../lib/session';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { PageHeading } from '../page-heading';
import { ProviderButtons } from './provider-buttons';

type Errors = Partial<Record<'email' | 'password', string>>;

export function validateLogin(email: string, password: string): Errors {
  const errors: Errors = {};
  if (email.trim() === '') errors.email = MESSAGES.required('an email address');
  else if (!isEmail(email.trim())) errors.email = MESSAGES.email;
  if (password === '') errors.password = MESSAGES.required('a password');
  return errors;
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

export default function LoginPage() {
  useProviderFailure();
  const returnTo = useStore((s) => s.model.returnTo);
  const settings = useSettings();
  const [email, setEmail] = useState(settings.email);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(settings.email !== '');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateLogin(email, password);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const reply = await api.post<{ location: string }>(AUTH_PATHS.login, {
        email: email.trim(),
        password,
        remember,
        returnTo,
      });
      settings.update({ email: remember ? email.trim() : '' });
      refreshUser();
      navigate(reply.location);
    } catch (err) {
      if (err instanceof ApiError) setErrors(fieldErrors(err.body) as Errors);
      else throw err;
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper variant="outlined" sx={{ maxWidth: 420, mx: 'auto', mt: { xs: 1, sm: 6 }, p: { xs: 2, sm: 4 } }}>
      <PageHeading>Sign in</PageHeading>
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2}>
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            autoFocus={email === ''}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={errors.email !== undefined}
            helperText={errors.email}
            slotProps={{ htmlInput: { maxLength: MAX_LENGTH.email } }}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            autoFocus={email !== ''}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={errors.password !== undefined}
            helperText={errors.password}
            slotProps={{ htmlInput: { maxLength: MAX_LENGTH.password } }}
          />
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
            <FormControlLabel
              control={<Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)} />}
              label="Remember me"
            />
            <Link component={RouterLink} to="/password/forgot" variant="body2">
              Forgot password?
            </Link>
          </Box>
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Sign in
          </Button>
        </Stack>
      </Box>
      <Divider sx={{ my: 3 }}>or</Divider>
      <ProviderButtons verb="Sign in with" />
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
        New to Tessera?{' '}
        <Link component={RouterLink} to="/signup">
          Sign Up
        </Link>
      </Typography>
    </Paper>
  );
}
