/**
 * Spec §2 set, change and reset: the read-only address, 'Current Password' (change only), 'New Password' with
 * its checklist, 'Confirm New Password' and 'Save Password'. On success: 'Password Updated', the user
 * refreshed, and on to where afterPassword() says (a signer to the agreement, a user to /profile, nobody —
 * after a reset — to /login).
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { afterPassword } from '@tessera/common/return-path';
import { MAX_LENGTH } from '@tessera/common/validation';
import { ConfirmPasswordField, FormContainer, NewPasswordField, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { navigate } from '../../lib/navigator';
import { logout, refreshUser } from '../../lib/session';
import { useStore } from '../../lib/store';
import { cancelPath } from './cancel-path';

export function PasswordForm({ action }: { action: 'set' | 'change' | 'reset' }) {
  const self = useStore((s) => s.self);
  const form = useForm({ password: '', newPassword: '', newPassword2: '' });

  async function save(values: typeof form.values) {
    const body =
      action === 'change'
        ? { password: values.password, newPassword: values.newPassword }
        : { newPassword: values.newPassword };
    await api.post(AUTH_PATHS.password(action), body);
    const user = refreshUser();
    useStore.getState().carryAlert({ type: 'success', ...ACCOUNT_MESSAGES.passwordUpdated });
    navigate(afterPassword(user));
  }

  return (
    <FormContainer form={form} onValid={save}>
      <Stack spacing={2}>
        <TextField
          label="Email"
          value={self.email}
          autoComplete="username"
          slotProps={{ input: { readOnly: true } }}
          helperText="Your sign-in address"
        />
        {action === 'change' && (
          <TextInput
            name="password"
            label="Current Password"
            type="password"
            what="your current password"
            autoComplete="current-password"
            maxLength={MAX_LENGTH.password}
          />
        )}
        <NewPasswordField />
        <ConfirmPasswordField />
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button
            onClick={() =>
              // A link's password-only session is of no use once abandoned: end it (logout goes to /login).
              self.role === 'resetter' ? void logout() : navigate(cancelPath(self.role))
            }
          >
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={form.busy}>
            Save Password
          </Button>
        </Stack>
      </Stack>
    </FormContainer>
  );
}
