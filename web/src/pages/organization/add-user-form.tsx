/**
 * Adding a user to an organization (decision 0007), in the dialog area: E-mail, Name, optional Title, and a
 * Role among those the adder may assign. The server sends the new user a link to set their password.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { RESOURCE_PATHS } from '@tessera/common/resources';
import { assignableRoles, type Role } from '@tessera/common/roles';
import { MAX_LENGTH } from '@tessera/common/validation';
import { useState } from 'react';
import { FormContainer, TextInput, useForm } from '../../forms';
import { ApiError, api } from '../../lib/api';
import { useStore } from '../../lib/store';
import { roleOptions } from '../user/role-options';

type Values = { email: string; name: string; title: string; role: string };

export function newUserBody(values: Values, organizationId: number) {
  const title = values.title.trim();
  return {
    email: values.email.trim(),
    name: values.name.trim(),
    ...(title ? { title } : {}),
    role: values.role as Role,
    organizationId,
  };
}

function AddUserForm({ organizationId, roles }: { organizationId: number; roles: Role[] }) {
  const form = useForm<Values>({ email: '', name: '', title: '', role: roles[0] ?? '' });
  // The alert stack sits behind the fullscreen dialog, so a refusal is shown here as well.
  const [refusal, setRefusal] = useState<string>();

  async function add(values: Values) {
    setRefusal(undefined);
    try {
      await api.post(RESOURCE_PATHS.users, newUserBody(values, organizationId));
    } catch (err) {
      if (err instanceof ApiError && err.status !== 400) setRefusal(err.message);
      throw err;
    }
    const store = useStore.getState();
    store.closeDialog();
    store.addAlert({
      type: 'success',
      title: 'User Added',
      text: `${values.email.trim()} has been sent a link to set their password.`,
    });
  }

  return (
    <FormContainer form={form} onValid={add} sx={{ maxWidth: 560 }}>
      <Stack spacing={2}>
        {refusal && (
          <Alert severity="error" data-testid="add-user-refusal">
            {refusal}
          </Alert>
        )}
        <TextInput name="email" label="E-mail" rule="email" type="email" autoFocus />
        <TextInput name="name" label="Name" maxLength={MAX_LENGTH.name} />
        <TextInput name="title" label="Title" optional maxLength={MAX_LENGTH.title} />
        <TextInput name="role" label="Role" select>
          {roleOptions(roles)}
        </TextInput>
        <Stack direction="row" spacing={2}>
          <Button type="submit" variant="contained" disabled={form.busy}>
            Add User
          </Button>
          <Button onClick={() => useStore.getState().closeDialog()} disabled={form.busy}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    </FormContainer>
  );
}

export function openAddUser(organizationId: number, adder: Role): void {
  useStore.getState().openDialog({
    title: 'Add User',
    content: <AddUserForm organizationId={organizationId} roles={assignableRoles(adder)} />,
  });
}
