/**
 * /users/add (spec §2: id 'add' means create; issue 32 item 8): E-mail, Name, optional Title, a Role among those
 * the adder may assign and, for a System Administrator, the organization (an administrator adds to their own).
 * The same call as the organization page's Add User (decision 0007): the server checks who may add whom where, and
 * sends the new user a link to set their password. Then the new user's page.
 */
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { type Organization, RESOURCE_PATHS, type UserEntry } from '@tessera/common/resources';
import { assignableRoles, canManageOrganizations, hasRank } from '@tessera/common/roles';
import { MAX_LENGTH } from '@tessera/common/validation';
import { Navigate } from 'react-router';
import { FormActions, FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { useCollection } from '../../lib/collections';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { newUserBody } from '../organization/add-user-form';
import { PageHeading } from '../page-heading';
import { roleOptions } from './role-options';

type Values = { email: string; name: string; title: string; role: string; organizationId: string };

const byName = (a: Organization, b: Organization) => a.name.localeCompare(b.name);

export function UserCreate() {
  const self = useStore((s) => s.self);
  const anywhere = canManageOrganizations(self.role);
  useFetch(anywhere ? RESOURCE_PATHS.organizations : null);
  const organizations = useCollection<Organization>('organizations', byName);
  const roles = assignableRoles(self.role);
  const form = useForm<Values>({
    email: '',
    name: '',
    title: '',
    role: roles[0] ?? '',
    organizationId: self.organizationId === null ? '' : String(self.organizationId),
  });
  // Adding people is an administrator's; one without an organization has nowhere to add them.
  if (!hasRank(self.role, 'admin') || (!anywhere && self.organizationId === null)) {
    return <Navigate to="/error/403" replace />;
  }
  const back = anywhere || self.organizationId === null ? '/organizations' : `/organizations/${self.organizationId}`;

  async function add(values: Values) {
    const reply = await api.post<{ users: Record<string, UserEntry> }>(
      RESOURCE_PATHS.users,
      newUserBody(values, Number(values.organizationId)),
    );
    const [created] = Object.values(reply.users);
    useStore.getState().carryAlert({
      type: 'success',
      title: 'User Added',
      text: `${values.email.trim()} has been sent a link to set their password.`,
    });
    navigate(created ? `/users/${created.id}` : back);
  }

  return (
    <>
      <PageHeading>Add User</PageHeading>
      <FormContainer form={form} onValid={add} sx={{ maxWidth: 560 }}>
        <Stack spacing={2}>
          <TextInput name="email" label="E-mail" rule="email" type="email" autoFocus />
          <TextInput name="name" label="Name" maxLength={MAX_LENGTH.name} />
          <TextInput name="title" label="Title" optional maxLength={MAX_LENGTH.title} />
          <TextInput name="role" label="Role" select>
            {roleOptions(roles)}
          </TextInput>
          {anywhere && (
            <TextInput name="organizationId" label="Organization" select>
              {organizations.map((o) => (
                <MenuItem key={o.id} value={String(o.id)}>
                  {o.name}
                </MenuItem>
              ))}
            </TextInput>
          )}
          <FormActions submit="Add User" onCancel={() => navigate(back)} />
        </Stack>
      </FormContainer>
    </>
  );
}
