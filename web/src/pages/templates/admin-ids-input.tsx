/**
 * adminIds as an autocomplete of the users and organizations the editor can see (GET /v2/users and
 * /v2/organizations answer with exactly those, decision 0007); its menu is at most 310 px high (spec §9, the
 * theme's MuiAutocomplete override). Ids already granted that the editor cannot see stay, shown by number.
 */
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { RESOURCE_PATHS } from '@tessera/common/resources';
import { useMemo } from 'react';
import { useFormContext } from '../../forms';
import { useFetch } from '../../lib/use-fetch';
import { idsOf, principalLabel, useNames } from './template-logic';

export interface Principal {
  id: number;
  label: string;
  kind: 'User' | 'Organization';
}

export function AdminIdsInput({ disabled }: { disabled?: boolean }) {
  const form = useFormContext();
  useFetch(RESOURCE_PATHS.users);
  useFetch(RESOURCE_PATHS.organizations);
  const { users, organizations } = useNames();
  const options = useMemo<Principal[]>(
    () => [
      ...Object.values(organizations ?? {})
        .map((o) => ({ id: o.id, label: o.name, kind: 'Organization' as const }))
        .sort((a, b) => a.label.localeCompare(b.label)),
      ...Object.values(users ?? {})
        .map((u) => ({ id: u.id, label: u.name ? `${u.name} <${u.email}>` : u.email, kind: 'User' as const }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    ],
    [users, organizations],
  );
  const chosen = idsOf(form.values.adminIds ?? '').map(
    (id) =>
      options.find((o) => o.id === id) ?? {
        id,
        label: principalLabel(id, users, organizations),
        kind: 'User' as const,
      },
  );
  const error = form.errors.adminIds;
  return (
    <Autocomplete
      multiple
      id={form.inputId('adminIds')}
      disabled={disabled}
      options={options}
      value={chosen}
      groupBy={(o) => (o.kind === 'User' ? 'Users' : 'Organizations')}
      getOptionLabel={(o) => o.label}
      getOptionKey={(o) => o.id}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, next) =>
        form.setValue(
          'adminIds',
          next
            .map((p) => p.id)
            .filter((id, i, all) => all.indexOf(id) === i)
            .join(','),
        )
      }
      filterSelectedOptions
      renderInput={(params) => (
        <TextField
          {...params}
          label="Who may edit"
          error={error !== undefined}
          helperText={error ?? 'Users and organizations besides System Administrators.'}
        />
      )}
    />
  );
}
