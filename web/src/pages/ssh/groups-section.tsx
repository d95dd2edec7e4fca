/** Host groups: create one by name and copy its token, shown this once; delete one (its grants end with it). */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatDate } from '@tessera/common/dates';
import { isGroupName, SSH_LIMITS, SSH_MESSAGES, type SshHostGroup } from '@tessera/common/ssh';
import { useState } from 'react';
import { FormContainer, TextInput, useForm } from '../../forms';
import { EmptyRow } from '../empty-row';
import { CopyBlock } from './copy-block';
import { Section } from './section';
import { call, type useSshData } from './ssh-data';

type Ssh = ReturnType<typeof useSshData>;
const EMPTY = { name: '' };
const nameCheck = (value: string) => (isGroupName(value) ? undefined : SSH_MESSAGES.groupName);

export function GroupsSection({ ssh, groups }: { ssh: Ssh; groups: SshHostGroup[] }) {
  const form = useForm(EMPTY);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);

  async function create(values: typeof EMPTY) {
    const reply = await call<{ sshHostGroups: Record<string, SshHostGroup & { token: string }> }>(
      'POST',
      '/v2/ssh/groups',
      { name: values.name.trim() },
    );
    ssh.apply(reply);
    const group = Object.values(reply.sshHostGroups)[0]!;
    setCreated({ name: group.name, token: group.token });
    form.reset(EMPTY);
  }

  return (
    <Section
      id="ssh-groups"
      title="Host groups"
      intro="A host group is a set of hosts, such as a database cluster or a deployment environment. Its hosts ask for the keys they let in with the group's token."
    >
      <TableContainer component={Paper} variant="outlined" sx={{ mb: 2 }}>
        <Table size="small" aria-label="Host groups">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Token</TableCell>
              <TableCell>Created</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {groups.map((group) => (
              <TableRow key={group.id} data-testid="ssh-group-row">
                <TableCell>{group.name}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>…{group.tokenLastFour}</TableCell>
                <TableCell>{formatDate(group.createdAt)}</TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    color="error"
                    aria-label={`Delete host group ${group.name}`}
                    onClick={() => void call('DELETE', `/v2/ssh/groups/${group.id}`).then(ssh.apply, () => undefined)}
                  >
                    Delete
                  </Button>
                </TableCell>
              </TableRow>
            ))}
            {groups.length === 0 && <EmptyRow columns={4}>No host groups yet.</EmptyRow>}
          </TableBody>
        </Table>
      </TableContainer>
      <FormContainer form={form} onValid={create}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <TextInput
            name="name"
            label="Group name"
            what="a group name"
            maxLength={SSH_LIMITS.groupName}
            check={nameCheck}
            placeholder="prod-db"
            fullWidth={false}
            sx={{ width: { xs: '100%', sm: 320 } }}
          />
          <Box sx={{ pt: 1 }}>
            <Button type="submit" variant="contained" disabled={form.busy}>
              Create group
            </Button>
          </Box>
        </Stack>
      </FormContainer>
      <Dialog
        open={created !== null}
        onClose={() => setCreated(null)}
        aria-labelledby="group-token-title"
        maxWidth="md"
        fullWidth
      >
        {created && (
          <>
            <DialogTitle id="group-token-title">Token for {created.name}</DialogTitle>
            <DialogContent>
              <Alert severity="warning" sx={{ mb: 2 }}>
                Copy this token now: it will not be shown again. Put it on the group's hosts in
                /etc/ssh/tessera-host-token (owner root, group nogroup, mode 0440).
              </Alert>
              <CopyBlock text={created.token} label="the token" testId="group-token" />
            </DialogContent>
            <DialogActions>
              <Button variant="contained" onClick={() => setCreated(null)}>
                I have copied it
              </Button>
            </DialogActions>
          </>
        )}
      </Dialog>
    </Section>
  );
}
