/** The first members of the audience being built (at most 20), asked for on demand. */
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { SEGMENT_LIMITS, type SegmentMember } from '@tessera/common/segments';
import { useState } from 'react';
import { request } from '../../lib/api';

export function SegmentPreview({ filters, disabled }: { filters: Record<string, unknown>; disabled: boolean }) {
  const key = JSON.stringify(filters);
  const [shown, setShown] = useState<{ key: string; members: SegmentMember[] } | null>(null);
  const [busy, setBusy] = useState(false);
  // A preview belongs to the filters it was made for.
  const members = shown?.key === key ? shown.members : null;

  async function load() {
    setBusy(true);
    try {
      const reply = await request<{ members: SegmentMember[] }>('POST', '/v2/segments/preview', {
        body: { filters: JSON.parse(key) },
        merge: false,
      });
      setShown({ key, members: reply.members });
    } catch {
      // the client has shown why
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="segment-preview-title">
      <Typography id="segment-preview-title" variant="h6" component="h3" sx={{ mt: 3, mb: 1 }}>
        Preview
      </Typography>
      <Button variant="outlined" onClick={() => void load()} disabled={disabled || busy}>
        Preview {SEGMENT_LIMITS.preview} members
      </Button>
      {members && members.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          Nobody matches these filters.
        </Typography>
      )}
      {members && members.length > 0 && (
        // Narrow screens scroll the table sideways: the region takes focus so keyboards can scroll it too.
        <TableContainer sx={{ mt: 1 }} tabIndex={0} role="region" aria-label="Segment preview, scrollable">
          <Table size="small" aria-label="Segment preview" data-testid="segment-preview">
            <TableHead>
              <TableRow>
                {['Id', 'Name', 'Gender', 'Born', 'City', 'State', 'ZIP'].map((h) => (
                  <TableCell key={h}>{h}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {members.map((m) => (
                <TableRow key={m.id}>
                  <TableCell>{m.id}</TableCell>
                  <TableCell>{`${m.firstName} ${m.lastName}`.trim()}</TableCell>
                  <TableCell>{m.gender}</TableCell>
                  <TableCell>{m.birthYear ?? ''}</TableCell>
                  <TableCell>{m.city}</TableCell>
                  <TableCell>{m.state}</TableCell>
                  <TableCell>{m.zip}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </section>
  );
}
