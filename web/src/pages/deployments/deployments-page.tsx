/**
 * Deployments (issue 21, root): every deployment, newest first: its release, environment and hosts (spec §3
 * `deploying`), status and times, moving live over the socket. Finished ones can be deleted from here.
 */
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatDate } from '@tessera/common/dates';
import { DEPLOYMENTS_CHANNEL } from '@tessera/common/deployments';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { socket } from '../../lib/socket';
import { useFetchState } from '../../lib/use-fetch';
import { ListStatusRow } from '../empty-row';
import { PageHeading } from '../page-heading';
import { usePaging } from '../table-pager';
import { DEPLOYMENTS_PATH, useDeployments } from './deployment-api';
import { StatusChip } from './status-chip';

export default function DeploymentsPage() {
  const deployments = useDeployments();
  const { visible, pager } = usePaging(deployments);
  const list = useFetchState(DEPLOYMENTS_PATH);
  useEffect(() => socket.watch(DEPLOYMENTS_CHANNEL), []);

  return (
    <>
      <PageHeading>Deployments</PageHeading>
      <Stack direction="row" sx={{ mb: 2 }}>
        <Button variant="contained" component={RouterLink} to="/deployments/add">
          Add Deployment
        </Button>
      </Stack>
      <TableContainer component={Paper} variant="outlined" tabIndex={0} role="region" aria-label="Deployments table">
        <Table size="small" aria-label="Deployments">
          <TableHead>
            <TableRow>
              <TableCell>Deployment</TableCell>
              <TableCell>Release</TableCell>
              <TableCell>Environment</TableCell>
              <TableCell align="right">Hosts</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Started</TableCell>
              <TableCell>Finished</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((d) => (
              <TableRow key={d.id} data-testid="deployment-row">
                <TableCell>
                  <Link component={RouterLink} to={`/deployments/${d.id}`}>
                    #{d.id}
                  </Link>
                </TableCell>
                <TableCell>
                  <Link component={RouterLink} to={`/releases/${d.releaseId}`}>
                    {d.version}
                  </Link>
                </TableCell>
                <TableCell>{d.deploying.environment}</TableCell>
                <TableCell align="right">{d.deploying.hosts.length}</TableCell>
                <TableCell>
                  <StatusChip status={d.status} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(d.createdAt)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(d.finishedAt)}</TableCell>
                <TableCell align="right">
                  {d.finishedAt && (
                    <Button
                      size="small"
                      color="error"
                      component={RouterLink}
                      to={`/deployments/delete/${d.id}`}
                      aria-label={`Delete deployment ${d.id}`}
                    >
                      Delete
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
            <ListStatusRow columns={8} state={list} empty={deployments.length === 0} what="the deployments">
              No deployments yet.
            </ListStatusRow>
          </TableBody>
        </Table>
        {pager}
      </TableContainer>
    </>
  );
}
