/** The user's own details: picture, e-mail (read-only), Name and Title (PUT /v2/users/{id}), and the password link. */
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { RESOURCE_PATHS } from '@tessera/common/resources';
import { ROLE_LABEL } from '@tessera/common/roles';
import { MAX_LENGTH } from '@tessera/common/validation';
import { Link as RouterLink } from 'react-router';
import { FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';
import { AvatarUpload } from './avatar-upload';

export const PROFILE_SAVED = { title: 'Profile Saved', text: 'Your name and title have been saved.' } as const;

export function ProfileDetails() {
  const self = useStore((s) => s.self);
  const form = useForm({ name: self.name, title: self.title });

  async function save(values: { name: string; title: string }) {
    const saved = { name: values.name.trim(), title: values.title.trim() };
    await api.put(`${RESOURCE_PATHS.users}/${self.id}`, saved);
    form.reset(saved);
    useStore.getState().addAlert({ type: 'success', ...PROFILE_SAVED });
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3}>
        <AvatarUpload />
        <FormContainer form={form} onValid={save} sx={{ flex: 1, minWidth: 0 }}>
          <Stack spacing={2}>
            <TextField label="Email" value={self.email} slotProps={{ input: { readOnly: true } }} />
            <TextInput name="name" label="Name" autoComplete="name" maxLength={MAX_LENGTH.name} />
            <TextInput
              name="title"
              label="Title"
              optional
              autoComplete="organization-title"
              maxLength={MAX_LENGTH.title}
            />
            <Typography variant="body2" color="text.secondary">
              {ROLE_LABEL[self.role]}
              {self.organizationName ? ` at ${self.organizationName}` : ''}
            </Typography>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
              <Link component={RouterLink} to="/password/change">
                Change Password
              </Link>
              <Button type="submit" variant="contained" disabled={form.busy || !form.dirty}>
                Save
              </Button>
            </Stack>
          </Stack>
        </FormContainer>
      </Stack>
    </Paper>
  );
}
