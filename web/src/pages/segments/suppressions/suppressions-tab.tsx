/**
 * The Suppressions tab of Segments (issue 22 item 2, super+): find a suppression by value (the server hashes it as
 * it stores it), add one, lift one with a reason, import a list; and who looked up a value (the lookup audit).
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { STEWARDSHIP_MESSAGES, type Suppression } from '@tessera/common/stewardship';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../../lib/api';
import { useStore } from '../../../lib/store';
import { useLoads } from '../../../lib/use-fetch';
import { EmptyRow, ListStatusRow } from '../../empty-row';
import { showsLoadError } from '../../load-error';
import { usePaging } from '../../table-pager';
import { LookupAudit } from './lookup-audit';
import { SuppressionImport } from './suppression-import';
import { liftDialog } from './suppression-lift';

const SOURCES: Record<Suppression['source'], string> = { request: 'Opt-out request', import: 'Import', staff: 'Staff' };

export function SuppressionsTab() {
  const [value, setValue] = useState('');
  const [by, setBy] = useState<'value' | 'identityId'>('value');
  const [searched, setSearched] = useState('');
  const [rows, setRows] = useState<Suppression[] | null>(null);
  const { visible, pager } = usePaging(rows ?? []);

  // A failed search shows its error and a Retry, never "No suppressions found." (issue 32 item 6).
  const { track, ...loads } = useLoads();
  const last = useRef<[string, 'value' | 'identityId']>(['', 'value']);
  const load = useCallback(
    async (v: string, key: 'value' | 'identityId' = 'value') => {
      last.current = [v, key];
      setRows(null);
      const query = v === '' ? {} : { [key]: v };
      try {
        const reply = await track(api.get<{ suppressions: Record<string, Suppression> }>('/v2/suppressions', query));
        setRows(Object.values(reply.suppressions).sort((a, b) => b.id - a.id));
      } catch {
        // Shown in the table, with a Retry.
      }
    },
    [track],
  );

  useEffect(() => {
    void load('');
  }, [load]);

  function search(event: FormEvent) {
    event.preventDefault();
    setSearched(value.trim());
    void load(value.trim(), by);
  }

  async function add() {
    const reply = await api
      .post<{ suppressions: Record<string, Suppression> }>('/v2/suppressions', { [by]: value.trim() })
      .catch(() => null);
    if (!reply) return;
    useStore.getState().addAlert({ type: 'success', title: STEWARDSHIP_MESSAGES.addedTitle, text: '' });
    setSearched(value.trim());
    await load(value.trim(), by);
  }

  const lifted = (id: number) => setRows((current) => (current ?? []).filter((r) => r.id !== id));

  return (
    <Stack spacing={4}>
      <Box component="form" onSubmit={search} role="search" aria-label="Suppressions">
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
          Suppressions
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          People and values left out of every lookup. Search by e-mail, phone, MD5 or SHA-256 (hashed before the search)
          or by identity id; leave it blank for the newest.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ maxWidth: 860 }}>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={by}
            onChange={(_e, next: 'value' | 'identityId' | null) => next && setBy(next)}
            aria-label="Search by"
          >
            <ToggleButton value="value">Value</ToggleButton>
            <ToggleButton value="identityId">Identity</ToggleButton>
          </ToggleButtonGroup>
          <TextField
            label={by === 'value' ? 'E-mail, phone, MD5 or SHA-256' : 'Identity id'}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            size="small"
            fullWidth
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <Button type="submit" variant="outlined">
            Search
          </Button>
          <Button variant="contained" disabled={value.trim() === ''} onClick={() => void add()}>
            Suppress
          </Button>
        </Stack>
      </Box>
      {/* Narrow screens scroll the table sideways: the region takes focus, so keys scroll it too. */}
      <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Suppressions found">
        <Table size="small" aria-label={searched ? `Suppressions of ${searched}` : 'Newest suppressions'}>
          <TableHead>
            <TableRow>
              <TableCell>Kind</TableCell>
              <TableCell>Value</TableCell>
              <TableCell>Source</TableCell>
              <TableCell>When</TableCell>
              <TableCell>By</TableCell>
              <TableCell align="right">Action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows === null && !showsLoadError(loads) && <EmptyRow columns={6}>Loading…</EmptyRow>}
            <ListStatusRow
              columns={6}
              state={{ ...loads, retry: () => void load(...last.current) }}
              empty={rows?.length === 0}
              what="the suppressions"
            >
              No suppressions found.
            </ListStatusRow>
            {visible.map((r) => (
              <TableRow key={r.id}>
                <TableCell>{r.kind}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }} title={r.value}>
                  {r.value.length > 20 ? `${r.value.slice(0, 16)}…` : r.value}
                </TableCell>
                <TableCell>{SOURCES[r.source]}</TableCell>
                <TableCell>{formatDate(r.createdAt)}</TableCell>
                <TableCell>{r.createdBy === null ? '—' : `User ${r.createdBy}`}</TableCell>
                <TableCell align="right">
                  <Button size="small" color="error" onClick={() => liftDialog(r, () => lifted(r.id))}>
                    Lift
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {pager}
      </Box>
      <SuppressionImport onImported={() => void load(searched, by)} />
      <LookupAudit />
    </Stack>
  );
}
