/** One database node: reachable or not (red, and saying so), its role, size, lag, connections and tables. */
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ClusterNode } from '@tessera/common/clusters';
import { formatBytes } from '@tessera/common/constants';
import { formatDate } from '@tessera/common/dates';
import { DetailList } from '../detail-list';
import { EmptyRow } from '../empty-row';

const number = (n: number) => n.toLocaleString('en-US');

function lag(node: ClusterNode): string {
  if (node.role !== 'replica') return 'None (primary)';
  return node.replicationLagSeconds === null ? 'Unknown' : `${node.replicationLagSeconds.toFixed(1)} s`;
}

function connections(node: ClusterNode): string {
  const entries = Object.entries(node.connections);
  return entries.length === 0 ? 'None' : entries.map(([state, n]) => `${n} ${state}`).join(', ');
}

export function NodeCard({ node }: { node: ClusterNode }) {
  const headingId = `cluster-${node.id}`;
  return (
    <Card
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      data-testid="cluster-card"
      data-reachable={node.reachable}
      data-checked-at={node.checkedAt}
      sx={{ borderColor: node.reachable ? 'divider' : 'error.main', borderWidth: node.reachable ? 1 : 2 }}
    >
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2" id={headingId}>
            {node.id}
          </Typography>
          <Chip
            size="small"
            color={node.reachable ? 'success' : 'error'}
            variant={node.reachable ? 'outlined' : 'filled'}
            label={node.reachable ? 'Reachable' : 'Unreachable'}
          />
          {node.role && (
            <Chip size="small" variant="outlined" label={node.role === 'primary' ? 'Primary' : 'Replica'} />
          )}
          <Chip size="small" variant="outlined" label={node.engine === 'pglite' ? 'Embedded' : 'PostgreSQL'} />
        </Stack>
        {!node.reachable && (
          <Alert severity="error" sx={{ mb: 2 }}>
            Not answering: {node.error ?? 'unknown reason'} Last checked {formatDate(node.checkedAt)}.
          </Alert>
        )}
        {node.reachable && (
          <>
            <DetailList
              items={[
                ['Server version', node.version ?? 'Unknown'],
                ['Database size', node.databaseBytes === null ? 'Unknown' : formatBytes(node.databaseBytes)],
                ['Replication lag', lag(node)],
                ['Connections', connections(node)],
                [
                  'Cache hit ratio',
                  node.cacheHitRatio === null ? 'Unknown' : `${(node.cacheHitRatio * 100).toFixed(1)}%`,
                ],
                [
                  'Longest running query',
                  node.longestQuery
                    ? `${node.longestQuery.seconds.toFixed(1)} s (pid ${node.longestQuery.pid}, ${node.longestQuery.state}): ${node.longestQuery.query}`
                    : 'None running',
                ],
                ['Checked', formatDate(node.checkedAt)],
              ]}
            />
            {node.notes.map((note) => (
              <Alert key={note} severity="info" sx={{ mt: 2 }}>
                {note}
              </Alert>
            ))}
            <Typography variant="subtitle1" component="h3" sx={{ mt: 2 }}>
              Largest tables
            </Typography>
            <Table size="small" aria-label={`Largest tables of ${node.id}`}>
              <TableHead>
                <TableRow>
                  <TableCell>Table</TableCell>
                  <TableCell align="right">Size</TableCell>
                  <TableCell align="right">Estimated rows</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {node.largestTables.map((table) => (
                  <TableRow key={table.name}>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{table.name}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {formatBytes(table.bytes)}
                    </TableCell>
                    <TableCell align="right">
                      {table.estimatedRows === null ? 'Not analysed' : number(table.estimatedRows)}
                    </TableCell>
                  </TableRow>
                ))}
                {node.largestTables.length === 0 && <EmptyRow columns={3}>No tables.</EmptyRow>}
              </TableBody>
            </Table>
          </>
        )}
      </CardContent>
    </Card>
  );
}
