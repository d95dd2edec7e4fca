/** Grants: a key's access to a host group as a login until an expiry (date-time picker), revoked at any time. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { formatDate } from '@tessera/common/dates';
import {
  isLiveGrant,
  isPrincipal,
  SSH_LIMITS,
  SSH_MESSAGES,
  type SshGrant,
  type SshHostGroup,
  type SshKey,
} from '@tessera/common/ssh';
import dayjs from 'dayjs';
import { FormContainer, TextInput, useForm } from '../../forms';
import { EmptyRow } from '../empty-row';
import { usePaging } from '../table-pager';
import { Section } from './section';
import { call, type useSshData } from './ssh-data';

type Ssh = ReturnType<typeof useSshData>;

/** Tomorrow at this time, on a five-minute step. */
const tomorrow = () =>
  dayjs()
    .add(1, 'day')
    .second(0)
    .millisecond(0)
    .minute(Math.ceil(dayjs().minute() / 5) * 5);
const fresh = () => ({ keyId: '', groupId: '', principal: '', expiresAt: tomorrow().toISOString() });
const principalCheck = (value: string) => (isPrincipal(value) ? undefined : SSH_MESSAGES.principal);

export function grantState(grant: SshGrant): { label: string; color: 'success' | 'default' | 'error' } {
  if (grant.revokedAt) return { label: 'Revoked', color: 'error' };
  return isLiveGrant(grant) ? { label: 'Live', color: 'success' } : { label: 'Expired', color: 'default' };
}

export function GrantsSection(props: { ssh: Ssh; grants: SshGrant[]; keys: SshKey[]; groups: SshHostGroup[] }) {
  const { ssh, grants, keys, groups } = props;
  const form = useForm(fresh());
  const { visible, pager } = usePaging(grants);
  const keyName = (id: number) => ssh.data.keys[id]?.name ?? `Key ${id}`;
  const groupName = (id: number) => ssh.data.groups[id]?.name ?? `Group ${id}`;
  const year = new Date().getFullYear();

  async function grant(values: ReturnType<typeof fresh>) {
    ssh.apply(
      await call('POST', '/v2/ssh/grants', {
        keyId: Number(values.keyId),
        groupId: Number(values.groupId),
        principal: values.principal.trim(),
        expiresAt: values.expiresAt,
      }),
    );
    form.reset(fresh());
  }

  return (
    <Section
      id="ssh-grants"
      title="Grants"
      intro="A grant lets a key into a host group's hosts as one login until its expiry, after which it lapses by itself."
    >
      <TableContainer component={Paper} variant="outlined" sx={{ mb: 2 }}>
        <Table size="small" aria-label="SSH grants">
          <TableHead>
            <TableRow>
              <TableCell>Key</TableCell>
              <TableCell>Host group</TableCell>
              <TableCell>Login</TableCell>
              <TableCell>Expires</TableCell>
              <TableCell>State</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((g) => {
              const state = grantState(g);
              return (
                <TableRow key={g.id} data-testid="ssh-grant-row">
                  <TableCell>{keyName(g.keyId)}</TableCell>
                  <TableCell>{groupName(g.groupId)}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{g.principal}</TableCell>
                  <TableCell>{formatDate(g.expiresAt)}</TableCell>
                  <TableCell>
                    <Chip size="small" variant="outlined" color={state.color} label={state.label} />
                  </TableCell>
                  <TableCell align="right">
                    {state.label === 'Live' && (
                      <Button
                        size="small"
                        color="error"
                        aria-label={`Revoke grant of ${keyName(g.keyId)} to ${groupName(g.groupId)} as ${g.principal}`}
                        onClick={() => void call('DELETE', `/v2/ssh/grants/${g.id}`).then(ssh.apply, () => undefined)}
                      >
                        Revoke
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
            {grants.length === 0 && <EmptyRow columns={6}>No grants yet.</EmptyRow>}
          </TableBody>
        </Table>
        {pager}
      </TableContainer>
      <FormContainer form={form} onValid={grant}>
        <Stack direction="row" sx={{ gap: 1.5, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <TextInput
            select
            name="keyId"
            label="Key"
            what="a key"
            fullWidth={false}
            sx={{ width: { xs: '100%', sm: 240 } }}
          >
            {keys.map((k) => (
              <MenuItem key={k.id} value={String(k.id)}>
                {k.name} ({k.owner})
              </MenuItem>
            ))}
          </TextInput>
          <TextInput
            select
            name="groupId"
            label="Host group"
            what="a host group"
            fullWidth={false}
            sx={{ width: { xs: '100%', sm: 200 } }}
          >
            {groups.map((g) => (
              <MenuItem key={g.id} value={String(g.id)}>
                {g.name}
              </MenuItem>
            ))}
          </TextInput>
          <TextInput
            name="principal"
            label="Login"
            what="a login name"
            maxLength={SSH_LIMITS.principal}
            check={principalCheck}
            placeholder="postgres"
            fullWidth={false}
            sx={{ width: { xs: '100%', sm: 180 } }}
          />
          <LocalizationProvider dateAdapter={AdapterDayjs}>
            <DateTimePicker
              label="Expires"
              value={dayjs(form.values.expiresAt)}
              onChange={(d) => d?.isValid() && form.setValue('expiresAt', d.toDate().toISOString())}
              minutesStep={5}
              disablePast
              minDate={dayjs(new Date(year - 100, 0, 1))}
              maxDate={dayjs().add(SSH_LIMITS.grantMaxDays, 'day')}
              slotProps={{ textField: { name: 'expiresAt', helperText: form.errors.expiresAt ?? ' ' } }}
            />
          </LocalizationProvider>
          <Box sx={{ pt: 1 }}>
            <Button type="submit" variant="contained" disabled={form.busy}>
              Grant access
            </Button>
          </Box>
        </Stack>
      </FormContainer>
    </Section>
  );
}
