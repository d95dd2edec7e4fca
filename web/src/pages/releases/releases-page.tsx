/**
 * Releases (issue 21, root): every release of the product, newest first, with its status, commit and artifact;
 * updates arrive over the socket. Add cuts a new draft.
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
import { formatBytes } from '@tessera/common/constants';
import { formatDate } from '@tessera/common/dates';
import { DEPLOYMENTS_CHANNEL } from '@tessera/common/deployments';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { socket } from '../../lib/socket';
import { useFetchState } from '../../lib/use-fetch';
import { ListStatusRow } from '../empty-row';
import { PageHeading } from '../page-heading';
import { usePaging } from '../table-pager';
import { RELEASES_PATH, useReleases } from './release-api';
import { ReleaseStatusChip } from './status-chip';

export default function ReleasesPage() {
  const releases = useReleases();
  const { visible, pager } = usePaging(releases);
  const list = useFetchState(RELEASES_PATH);
  useEffect(() => socket.watch(DEPLOYMENTS_CHANNEL), []);

  return (
    <>
      <PageHeading>Releases</PageHeading>
      <Stack direction="row" sx={{ mb: 2 }}>
        <Button variant="contained" component={RouterLink} to="/releases/add">
          Add Release
        </Button>
      </Stack>
      <TableContainer component={Paper} variant="outlined" tabIndex={0} role="region" aria-label="Releases table">
        <Table size="small" aria-label="Releases">
          <TableHead>
            <TableRow>
              <TableCell>Version</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Commit</TableCell>
              <TableCell align="right">Artifact</TableCell>
              <TableCell>Created</TableCell>
              <TableCell>Published</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((release) => (
              <TableRow key={release.id} data-testid="release-row">
                <TableCell>
                  <Link component={RouterLink} to={`/releases/${release.id}`}>
                    {release.version}
                  </Link>
                </TableCell>
                <TableCell>
                  <ReleaseStatusChip status={release.status} />
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{release.commit.slice(0, 12)}</TableCell>
                <TableCell align="right">{formatBytes(release.artifactSize)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(release.createdAt)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(release.publishedAt)}</TableCell>
              </TableRow>
            ))}
            <ListStatusRow columns={6} state={list} empty={releases.length === 0} what="the releases">
              No releases yet.
            </ListStatusRow>
          </TableBody>
        </Table>
        {pager}
      </TableContainer>
    </>
  );
}
