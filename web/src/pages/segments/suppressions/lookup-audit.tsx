/** Who looked up a value (hashed with the server's key before the search) or found an identity, and when. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import type { LookupAuditEntry } from '@tessera/common/stewardship';
import { type FormEvent, useState } from 'react';
import { api } from '../../../lib/api';
import { EmptyRow } from '../../empty-row';
import { usePaging } from '../../table-pager';

export function LookupAudit() {
  const [value, setValue] = useState('');
  const [rows, setRows] = useState<LookupAuditEntry[] | null>(null);
  const { visible, pager } = usePaging(rows ?? []);

  async function search(event: FormEvent) {
    event.preventDefault();
    const v = value.trim();
    if (v === '') return;
    try {
      const reply = await api.get<{ lookupAudit: Record<string, LookupAuditEntry> }>('/v2/audit/lookups', { value: v });
      setRows(Object.values(reply.lookupAudit).sort((a, b) => b.id - a.id));
    } catch {
      setRows(null);
    }
  }

  return (
    <Box>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        Lookup audit
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Who looked up an e-mail, phone or hash, with which key and when. Only keyed hashes of the values are kept.
      </Typography>
      <Stack
        component="form"
        role="search"
        aria-label="Lookup audit"
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ maxWidth: 760, mb: 2 }}
        onSubmit={search}
      >
        <TextField
          label="Looked-up value"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          size="small"
          fullWidth
        />
        <Button type="submit" variant="outlined">
          Find lookups
        </Button>
      </Stack>
      {rows && (
        <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Lookups found">
          <Table size="small" aria-label="Lookups of the value">
            <TableHead>
              <TableRow>
                <TableCell>When</TableCell>
                <TableCell>User</TableCell>
                <TableCell>Key</TableCell>
                <TableCell>Call</TableCell>
                <TableCell>Request</TableCell>
                <TableCell>Identities returned</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.length === 0 && <EmptyRow columns={6}>Nobody has looked up this value.</EmptyRow>}
              {visible.map((r) => (
                <TableRow key={r.id}>
                  <TableCell>{formatDate(r.at)}</TableCell>
                  <TableCell>{r.userId}</TableCell>
                  <TableCell>{r.keyId ?? 'Console'}</TableCell>
                  <TableCell>{`${r.method} ${r.path}`}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{r.requestId}</TableCell>
                  <TableCell>{r.identityIds.join(', ') || 'None'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {pager}
        </Box>
      )}
    </Box>
  );
}
