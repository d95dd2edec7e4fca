/** Registered SSH public keys: add one by pasting it, see its fingerprint, delete it. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatDate } from '@tessera/common/dates';
import { SSH_LIMITS, type SshKey } from '@tessera/common/ssh';
import { MAX_LENGTH } from '@tessera/common/validation';
import { FormContainer, TextInput, useForm } from '../../forms';
import { EmptyRow } from '../empty-row';
import { usePaging } from '../table-pager';
import { Section } from './section';
import { call, type useSshData } from './ssh-data';

type Ssh = ReturnType<typeof useSshData>;
const EMPTY = { publicKey: '', name: '' };

export function KeysSection({ ssh, keys }: { ssh: Ssh; keys: SshKey[] }) {
  const form = useForm(EMPTY);
  const { visible, pager } = usePaging(keys);

  async function add(values: typeof EMPTY) {
    ssh.apply(await call('POST', '/v2/ssh/keys', { publicKey: values.publicKey, name: values.name.trim() }));
    form.reset(EMPTY);
  }

  return (
    <Section
      id="ssh-keys"
      title="Keys"
      intro="Staff's SSH public keys: ed25519, ecdsa, or rsa of at least 3072 bits. Paste one line of a .pub file; the fingerprint is the one ssh-keygen -lf prints."
    >
      <TableContainer component={Paper} variant="outlined" sx={{ mb: 2 }}>
        <Table size="small" aria-label="SSH keys">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Owner</TableCell>
              <TableCell>Type</TableCell>
              <TableCell>Fingerprint</TableCell>
              <TableCell>Added</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((key) => (
              <TableRow key={key.id} data-testid="ssh-key-row">
                <TableCell>{key.name}</TableCell>
                <TableCell>{key.owner}</TableCell>
                <TableCell>
                  {key.type} {key.bits}
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{key.fingerprint}</TableCell>
                <TableCell>{formatDate(key.createdAt)}</TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    color="error"
                    aria-label={`Delete key ${key.name}`}
                    onClick={() => void call('DELETE', `/v2/ssh/keys/${key.id}`).then(ssh.apply, () => undefined)}
                  >
                    Delete
                  </Button>
                </TableCell>
              </TableRow>
            ))}
            {keys.length === 0 && <EmptyRow columns={6}>No keys yet.</EmptyRow>}
          </TableBody>
        </Table>
        {pager}
      </TableContainer>
      <FormContainer form={form} onValid={add}>
        <Stack spacing={1} sx={{ maxWidth: 860 }}>
          <TextInput
            name="publicKey"
            label="Public key"
            what="a public key"
            multiline
            minRows={3}
            maxLength={SSH_LIMITS.publicKey}
            placeholder="ssh-ed25519 AAAAC3Nza... you@laptop"
            slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
          />
          <TextInput name="name" label="Key name" optional maxLength={MAX_LENGTH.name} />
          <Box>
            <Button type="submit" variant="contained" disabled={form.busy}>
              Add key
            </Button>
          </Box>
        </Stack>
      </FormContainer>
    </Section>
  );
}
