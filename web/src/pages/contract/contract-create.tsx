/**
 * /contracts/add (spec §2: id 'add' means create; issue 32 item 8): a contract belongs to one organization, so the
 * page asks which, then writes it at /contracts/add/{organizationId}. Super+ only, as the server enforces.
 */
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { type Organization, RESOURCE_PATHS } from '@tessera/common/resources';
import { FormActions, FormContainer, TextInput, useForm } from '../../forms';
import { useCollection } from '../../lib/collections';
import { navigate } from '../../lib/navigator';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';

const byName = (a: Organization, b: Organization) => a.name.localeCompare(b.name);

export function ContractCreate() {
  useFetch(RESOURCE_PATHS.organizations);
  const organizations = useCollection<Organization>('organizations', byName);
  const form = useForm<{ organizationId: string }>({ organizationId: '' });
  return (
    <>
      <PageHeading>New Contract</PageHeading>
      <FormContainer
        form={form}
        onValid={async ({ organizationId }) => navigate(`/contracts/add/${organizationId}`)}
        sx={{ maxWidth: 560 }}
      >
        <Stack spacing={2}>
          <TextInput name="organizationId" label="Organization" select autoFocus>
            {organizations.map((o) => (
              <MenuItem key={o.id} value={String(o.id)}>
                {o.name}
              </MenuItem>
            ))}
          </TextInput>
          <FormActions submit="Continue" onCancel={() => navigate('/organizations')} />
        </Stack>
      </FormContainer>
    </>
  );
}
