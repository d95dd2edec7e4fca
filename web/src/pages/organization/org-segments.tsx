/**
 * The audience segments assigned to an organization (issue 19): its users export them here, at the organization's
 * contract prices. Staff build and assign segments on the Segments page.
 */
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { hasRank } from '@tessera/common/roles';
import type { Segment } from '@tessera/common/segments';
import { useEffect, useMemo } from 'react';
import { request } from '../../lib/api';
import { byName } from '../../lib/collections';
import { SegmentExport } from '../../lib/segment-export';
import { useStore } from '../../lib/store';

export function OrganizationSegments({ organizationId }: { organizationId: number }) {
  const self = useStore((s) => s.self);
  // Only its own users export at its prices; staff see every segment on the Segments page.
  const mine = self.organizationId === organizationId && !hasRank(self.role, 'super');
  // A section beside the organization's own: a failure to list segments leaves it out rather than leave the page.
  useEffect(() => {
    if (mine) request('GET', '/v2/segments', { claim: () => true }).catch(() => {});
  }, [mine]);
  const stored = useStore((s) => s.areas.segments) as Record<string, Segment> | undefined;
  const segments = useMemo(
    () =>
      Object.values(stored ?? {})
        .filter((s) => s.organizationIds.includes(organizationId))
        .sort(byName),
    [stored, organizationId],
  );
  if (!mine || segments.length === 0) return null;
  return (
    <section aria-labelledby="org-segments-title" data-testid="org-segments">
      <Typography id="org-segments-title" variant="h5" component="h2" sx={{ mt: 4, mb: 1 }}>
        Audience segments
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Exports are charged per identity at your contract&apos;s prices.
      </Typography>
      <Stack spacing={2}>
        {segments.map((s) => (
          <Paper key={s.id} variant="outlined" sx={{ p: 2 }}>
            <Typography component="h3" sx={{ fontWeight: 500, mb: 1 }}>
              {s.name}
            </Typography>
            <SegmentExport segmentId={s.id} />
          </Paper>
        ))}
      </Stack>
    </section>
  );
}
