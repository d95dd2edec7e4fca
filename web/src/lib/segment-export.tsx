/**
 * Exporting a segment (issue 19): a template to shape each member, and the CSV the server streams, saved as a file
 * (spec §7 attachments). Used by the Segments page (staff) and the organization page (its users).
 */
import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { Template } from '@tessera/common/templates';
import { useMemo, useState } from 'react';
import { api } from './api';
import { useStore } from './store';
import { useFetch } from './use-fetch';

/** The Full template: every field of every member. */
const FULL_TEMPLATE = 1;

export function SegmentExport({ segmentId, label = 'Export CSV' }: { segmentId: number; label?: string }) {
  useFetch('/v2/templates');
  const stored = useStore((s) => s.areas.templates) as Record<string, Template> | undefined;
  const templates = useMemo(
    () =>
      Object.values(stored ?? {})
        .filter((t) => t.publishedVersion !== null)
        .sort((a, b) => a.id - b.id),
    [stored],
  );
  const [template, setTemplate] = useState(FULL_TEMPLATE);
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      await api.get(`/v2/segments/${segmentId}/export.csv`, { template });
    } catch {
      // the client has shown why
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <TextField
        select
        size="small"
        label="Template"
        value={templates.some((t) => t.id === template) ? template : ''}
        onChange={(e) => setTemplate(Number(e.target.value))}
        sx={{ minWidth: 200 }}
      >
        {templates.map((t) => (
          <MenuItem key={t.id} value={t.id}>
            {t.name}
          </MenuItem>
        ))}
      </TextField>
      <Button variant="contained" startIcon={<DownloadIcon />} onClick={() => void download()} disabled={busy}>
        {label}
      </Button>
    </Stack>
  );
}
