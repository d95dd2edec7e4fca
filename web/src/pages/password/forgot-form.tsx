/**
 * Spec §2 forgot: an email and 'Get a Reset Link'; the field is disabled once submitted, then /login shows
 * 'Password Reset Requested' (carried across the navigation).
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { cancelPath } from './cancel-path';

export function ForgotForm() {
  const role = useStore((s) => s.self.role);
  const form = useForm({ email: '' });

  async function requestLink(values: { email: string }) {
    const email = values.email.trim();
    await api.post(AUTH_PATHS.forgot, { email });
    const { title, text, hint } = ACCOUNT_MESSAGES.resetRequested(email);
    useStore.getState().carryAlert({ type: 'success', title, text: `${text} ${hint}` });
    navigate('/login');
  }

  return (
    <FormContainer form={form} onValid={requestLink}>
      <Stack spacing={2}>
        <Typography color="text.secondary">
          Enter the email address of your account, and we will send you a link to set a new password.
        </Typography>
        <TextInput
          name="email"
          label="Email"
          type="email"
          rule="email"
          autoComplete="username"
          autoFocus
          disabled={form.submitted}
        />
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={() => navigate(cancelPath(role))}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={form.submitted}>
            Get a Reset Link
          </Button>
        </Stack>
      </Stack>
    </FormContainer>
  );
}
