/**
 * The Segments tab: the saved segments, and the builder for a new one or the one opened. The size follows the
 * filters as they change; the builder previews, saves, assigns to organizations, exports and deletes.
 */
import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Organization } from '@tessera/common/resources';
import { activeFilterCount, SEGMENT_LIMITS, SEGMENT_MESSAGES, type Segment } from '@tessera/common/segments';
import { useMemo, useState } from 'react';
import { ApiError, api, fieldErrors } from '../../lib/api';
import { byName, useCollection } from '../../lib/collections';
import { SegmentExport } from '../../lib/segment-export';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { confirmInDialog } from '../confirm-dialog';
import { draftFilters, draftOf, type FilterDraft, SegmentFilterFields } from './segment-filters';
import { SegmentPreview } from './segment-preview';
import { useSegmentSize } from './segment-size';

const EMPTY: FilterDraft = { filters: {}, ageMin: '', ageMax: '' };

export function SegmentsTab() {
  useFetch('/v2/segments');
  useFetch('/v2/organizations');
  const stored = useStore((s) => s.areas.segments) as Record<string, Segment> | undefined;
  const segments = useMemo(() => Object.values(stored ?? {}).sort(byName), [stored]);
  const organizations = useCollection<Organization>('organizations', byName);
  const [openId, setOpenId] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [draft, setDraft] = useState<FilterDraft>(EMPTY);
  const [assigned, setAssigned] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const raw = useMemo(() => draftFilters(draft), [draft]);
  const size = useSegmentSize(raw);
  const valid = Object.keys(size.problems).length === 0;

  function open(segment: Segment | null) {
    setOpenId(segment?.id ?? null);
    setName(segment?.name ?? '');
    setNameError(null);
    setDraft(segment ? draftOf(segment.filters) : EMPTY);
    setAssigned(segment?.organizationIds ?? []);
    setSaved(null);
  }

  async function save() {
    const trimmed = name.trim();
    const problem = !trimmed
      ? SEGMENT_MESSAGES.name
      : trimmed.length > SEGMENT_LIMITS.nameMax
        ? SEGMENT_MESSAGES.nameLength
        : null;
    setNameError(problem);
    if (problem || !valid) return;
    setSaving(true);
    try {
      const body = { name: trimmed, filters: raw, organizationIds: assigned };
      const reply = await (openId === null
        ? api.post<{ segments: Record<string, Segment> }>('/v2/segments', body)
        : api.put<{ segments: Record<string, Segment> }>(`/v2/segments/${openId}`, body));
      const segment = Object.values(reply.segments)[0]!;
      setOpenId(segment.id);
      setSaved(`Saved ${segment.name}.`);
    } catch (error) {
      if (error instanceof ApiError) setNameError(fieldErrors(error.body).name ?? null);
    } finally {
      setSaving(false);
    }
  }

  function remove(segment: Segment) {
    confirmInDialog({
      title: 'Delete segment',
      text: `Delete the segment ${segment.name}? Organizations it is assigned to can no longer export it.`,
      confirmLabel: 'Delete',
      onConfirm: async () => {
        await api.del(`/v2/segments/${segment.id}`);
        if (openId === segment.id) open(null);
      },
    });
  }

  const current = openId === null ? undefined : stored?.[String(openId)];
  return (
    <Stack spacing={4}>
      <section aria-labelledby="saved-segments-title">
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
          <Typography id="saved-segments-title" variant="h5" component="h2">
            Saved segments
          </Typography>
          <Button startIcon={<AddIcon />} onClick={() => open(null)}>
            New segment
          </Button>
        </Stack>
        {segments.length === 0 ? (
          <Typography color="text.secondary">No segments saved yet.</Typography>
        ) : (
          <Table size="small" aria-labelledby="saved-segments-title">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Filters</TableCell>
                <TableCell>Organizations</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {segments.map((s) => (
                <TableRow key={s.id} selected={s.id === openId}>
                  <TableCell>{s.name}</TableCell>
                  <TableCell>{activeFilterCount(s.filters)}</TableCell>
                  <TableCell>{s.organizationIds.length}</TableCell>
                  <TableCell align="right">
                    <Button size="small" onClick={() => open(s)} aria-label={`Open ${s.name}`}>
                      Open
                    </Button>
                    <Button size="small" color="error" onClick={() => remove(s)} aria-label={`Delete ${s.name}`}>
                      Delete
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>

      <Paper component="section" variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} aria-labelledby="builder-title">
        <Typography id="builder-title" variant="h5" component="h2" sx={{ mb: 2 }}>
          {current ? `Segment: ${current.name}` : 'New segment'}
        </Typography>
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => name && setNameError(name.trim() ? null : SEGMENT_MESSAGES.name)}
          error={!!nameError}
          helperText={nameError}
          required
          fullWidth
          slotProps={{ htmlInput: { maxLength: SEGMENT_LIMITS.nameMax } }}
          sx={{ mb: 2 }}
        />
        <SegmentFilterFields draft={draft} onChange={setDraft} problems={size.problems} />
        <Box aria-live="polite" sx={{ my: 2 }}>
          <Typography variant="h6" component="p" data-testid="segment-size">
            {!valid
              ? 'Fix the filters to see the size.'
              : size.count === null
                ? 'Counting…'
                : `${size.count.toLocaleString('en-US')} ${size.count === 1 ? 'person' : 'people'}`}
          </Typography>
        </Box>
        <Autocomplete
          multiple
          options={organizations.map((o) => o.id)}
          value={assigned}
          getOptionLabel={(id) => organizations.find((o) => o.id === id)?.name ?? `Organization ${id}`}
          onChange={(_e, value) => setAssigned(value)}
          renderInput={(params) => (
            <TextField {...params} label="Assigned to organizations" helperText="Their users can export it." />
          )}
        />
        {saved && (
          <Alert severity="success" sx={{ mt: 2 }}>
            {saved}
          </Alert>
        )}
        <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center', flexWrap: 'wrap', rowGap: 2 }}>
          <Button variant="contained" onClick={() => void save()} disabled={saving}>
            Save segment
          </Button>
          {current && <SegmentExport segmentId={current.id} />}
        </Stack>
        <SegmentPreview filters={raw} disabled={!valid} />
      </Paper>
    </Stack>
  );
}
