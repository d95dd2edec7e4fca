/**
 * Create or edit an organization (decision 0007): Name (required), E-mail domain (optional, spec §5 domain rule;
 * only super+ may change it, admins see it read-only), and whether it accepts new users.
 */
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type Organization, RESOURCE_PATHS } from '@tessera/common/resources';
import { canManageOrganizations, ROLE_LABEL } from '@tessera/common/roles';
import { MAX_LENGTH } from '@tessera/common/validation';
import { useEffect, useRef } from 'react';
import { FormActions, FormContainer, TextInput, useForm } from '../../forms';
import { api } from '../../lib/api';
import { useItem } from '../../lib/collections';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { fromBoolean, SwitchInput } from '../switch-input';

type Values = { name: string; emailDomain: string; acceptUsers: string };

const valuesOf = (o: Organization): Values => ({
  name: o.name,
  emailDomain: o.emailDomain ?? '',
  acceptUsers: fromBoolean(o.acceptUsers),
});

/** The body a save sends: the e-mail domain only from those who may change it; empty means none. */
export function organizationBody(values: Values, mayChangeDomain: boolean) {
  return {
    name: values.name.trim(),
    acceptUsers: values.acceptUsers === 'true',
    ...(mayChangeDomain ? { emailDomain: values.emailDomain.trim() || null } : {}),
  };
}

export function OrganizationEditor({ id }: { id?: number }) {
  const self = useStore((s) => s.self);
  const existing = useItem<Organization>('organizations', id);
  const form = useForm<Values>({ name: '', emailDomain: '', acceptUsers: '' });
  const loaded = useRef(false);
  const mayChangeDomain = canManageOrganizations(self.role);
  const back = id === undefined ? '/organizations' : `/organizations/${id}`;

  useFetch(id === undefined ? null : `${RESOURCE_PATHS.organizations}/${id}`);

  useEffect(() => {
    if (!existing || loaded.current) return;
    loaded.current = true;
    form.reset(valuesOf(existing));
  }, [existing, form.reset]);

  async function save(values: Values) {
    const body = organizationBody(values, mayChangeDomain);
    if (id !== undefined) {
      await api.put(`${RESOURCE_PATHS.organizations}/${id}`, body);
      navigate(back);
      return;
    }
    const reply = await api.post<{ organizations?: Record<string, Organization> }>(RESOURCE_PATHS.organizations, body);
    const created = Object.values(reply.organizations ?? {})[0];
    navigate(created ? `/organizations/${created.id}` : '/organizations');
  }

  if (id !== undefined && !existing) return <CircularProgress aria-label="Loading the organization" />;
  return (
    <>
      <PageHeading>{existing ? `Edit ${existing.name}` : 'Add Organization'}</PageHeading>
      <FormContainer form={form} onValid={save} sx={{ maxWidth: 560 }}>
        <Stack spacing={2}>
          <TextInput name="name" label="Name" maxLength={MAX_LENGTH.name} autoFocus />
          {mayChangeDomain ? (
            <TextInput
              name="emailDomain"
              label="E-mail domain"
              rule="domain"
              optional
              helperText="People with e-mail addresses at this domain may join the organization."
            />
          ) : (
            <TextField
              label="E-mail domain"
              value={form.values.emailDomain || 'None'}
              helperText={`Only a ${ROLE_LABEL.super} can change the e-mail domain.`}
              slotProps={{ input: { readOnly: true } }}
            />
          )}
          <SwitchInput name="acceptUsers" label="Accept new users" />
          <FormActions submit="Save" onCancel={() => navigate(back)} />
        </Stack>
      </FormContainer>
    </>
  );
}
