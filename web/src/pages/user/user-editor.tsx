/**
 * Edit a user (decision 0007): Name and Title; Role and Active only when the editor's rank is strictly higher
 * than the target's, with the roles the editor may assign. Nobody changes their own role.
 */
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { RESOURCE_PATHS, type UserEntry } from '@tessera/common/resources';
import { assignableRoles, canEditUser, ROLE_RANK, type Role } from '@tessera/common/roles';
import { MAX_LENGTH } from '@tessera/common/validation';
import { useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import { FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { useItem } from '../../lib/collections';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { fromBoolean, SwitchInput } from '../switch-input';
import { roleOptions } from './role-options';

type Values = { name: string; title: string; role: string; isActive: string };

/** The body a save sends: role and active state only from someone strictly higher, the role only if changed. */
export function userPatch(values: Values, target: Pick<UserEntry, 'role'>, higher: boolean) {
  const patch: { name: string; title: string; role?: Role; isActive?: boolean } = {
    name: values.name.trim(),
    title: values.title.trim(),
  };
  if (higher) {
    patch.isActive = values.isActive === 'true';
    if (values.role !== target.role) patch.role = values.role as Role;
  }
  return patch;
}

export function UserEditor({ id }: { id: number }) {
  const self = useStore((s) => s.self);
  const target = useItem<UserEntry>('users', id);
  const form = useForm<Values>({ name: '', title: '', role: '', isActive: '' });
  const loaded = useRef(false);
  const roles = assignableRoles(self.role);
  const editorRole = self.role;

  useFetch(`${RESOURCE_PATHS.users}/${id}`);

  useEffect(() => {
    if (!target || loaded.current) return;
    loaded.current = true;
    form.reset({
      name: target.name,
      title: target.title,
      role: assignableRoles(editorRole).includes(target.role) ? target.role : '',
      isActive: fromBoolean(target.isActive),
    });
  }, [target, editorRole, form.reset]);

  if (!target) return <CircularProgress aria-label="Loading the user" />;
  if (!canEditUser(self, target)) return <Navigate to="/error/403" replace />;
  const higher = self.id !== target.id && ROLE_RANK[self.role] > ROLE_RANK[target.role];

  async function save(values: Values) {
    if (!target) return;
    await api.put(`${RESOURCE_PATHS.users}/${id}`, userPatch(values, target, higher));
    navigate(`/users/${id}`);
  }

  return (
    <>
      <PageHeading>Edit {target.name || target.email}</PageHeading>
      <FormContainer form={form} onValid={save} sx={{ maxWidth: 560 }}>
        <Stack spacing={2}>
          <TextInput name="name" label="Name" maxLength={MAX_LENGTH.name} autoFocus />
          <TextInput name="title" label="Title" optional maxLength={MAX_LENGTH.title} />
          {higher && (
            <TextInput name="role" label="Role" select>
              {roleOptions(roles)}
            </TextInput>
          )}
          {higher && <SwitchInput name="isActive" label="Active" />}
          <Stack direction="row" spacing={2}>
            <Button type="submit" variant="contained" disabled={form.busy}>
              Save
            </Button>
            <Button onClick={() => navigate(`/users/${id}`)} disabled={form.busy}>
              Cancel
            </Button>
          </Stack>
        </Stack>
      </FormContainer>
    </>
  );
}
