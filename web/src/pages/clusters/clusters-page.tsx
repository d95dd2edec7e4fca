/**
 * Clusters (issue 20, root): every database node the server knows, read once on opening and then refreshed over
 * the socket while the page is open (the server runs one poller however many tabs follow it). A node that stops
 * answering turns red within a round; the page itself never fails for it.
 */
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { CLUSTERS_CHANNEL, type ClusterNode } from '@tessera/common/clusters';
import { useEffect, useMemo } from 'react';
import { socket } from '../../lib/socket';
import { useStore } from '../../lib/store';
import { useFetchState } from '../../lib/use-fetch';
import { LoadError, showsLoadError } from '../load-error';
import { PageHeading } from '../page-heading';
import { NodeCard } from './node-card';

export default function ClustersPage() {
  useEffect(() => socket.watch(CLUSTERS_CHANNEL), []);
  const load = useFetchState('/v2/clusters');
  const stored = useStore((s) => s.areas.clusters) as Record<string, ClusterNode> | undefined;
  const nodes = useMemo(() => Object.values(stored ?? {}), [stored]);

  return (
    <>
      <PageHeading>Clusters</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        The main database and the nodes named in the CLUSTERS setting, refreshed every few seconds while this page is
        open.
      </Typography>
      {load.status === 'loading' && !load.error && nodes.length === 0 && <Typography>Reading the clusters…</Typography>}
      {showsLoadError(load) && (
        <LoadError
          what="the clusters"
          error={load.error}
          retrying={load.status === 'loading'}
          onRetry={load.retry}
          sx={{ mb: 2 }}
        />
      )}
      <Grid container spacing={2}>
        {nodes.map((node) => (
          <Grid key={node.id} size={{ xs: 12, lg: 6 }}>
            <NodeCard node={node} />
          </Grid>
        ))}
      </Grid>
    </>
  );
}
