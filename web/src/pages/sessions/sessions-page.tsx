/**
 * Sessions (spec §2, decision 0007): every live session for super+, with who, where from and when last seen.
 * Revoking one replies with it carrying deletedAt, which removes its row.
 */
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { RESOURCE_PATHS, type SessionEntry } from '@tessera/common/resources';
import { canEndSession } from '@tessera/common/roles';
import { Link as RouterLink } from 'react-router';
import { useCollection } from '../../lib/collections';
import { useStore } from '../../lib/store';
import { useFetchState } from '../../lib/use-fetch';
import { ListStatusRow } from '../empty-row';
import { PageHeading } from '../page-heading';
import { usePaging } from '../table-pager';
import { RevokeButton } from './revoke-button';

const latestFirst = (a: SessionEntry, b: SessionEntry) => b.lastSeenAt.localeCompare(a.lastSeenAt);

export default function SessionsPage() {
  const sessions = useCollection<SessionEntry>('sessions', latestFirst);
  const self = useStore((s) => s.self);
  const { visible, pager } = usePaging(sessions);

  const list = useFetchState(RESOURCE_PATHS.sessions);

  return (
    <>
      <PageHeading>Sessions</PageHeading>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Sessions">
          <TableHead>
            <TableRow>
              <TableCell>User</TableCell>
              <TableCell>Organization</TableCell>
              <TableCell>IP</TableCell>
              <TableCell>User agent</TableCell>
              <TableCell>Last seen</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((session) => (
              <TableRow key={session.id} data-testid="session-row" selected={session.current}>
                <TableCell>
                  <Link component={RouterLink} to={`/users/${session.userId}`}>
                    {session.userName || session.userEmail}
                  </Link>
                  <Typography variant="body2" color="text.secondary">
                    {session.userEmail}
                  </Typography>
                  {session.current && <Chip size="small" color="primary" label="This session" sx={{ mt: 0.5 }} />}
                  {session.impersonatorId !== null && (
                    <Chip size="small" variant="outlined" label="Impersonated" sx={{ mt: 0.5 }} />
                  )}
                </TableCell>
                <TableCell>
                  {session.organizationId === null ? (
                    ''
                  ) : (
                    <Link component={RouterLink} to={`/organizations/${session.organizationId}`}>
                      {session.organizationName}
                    </Link>
                  )}
                </TableCell>
                <TableCell>{session.ip}</TableCell>
                <TableCell sx={{ maxWidth: 320 }}>
                  <Typography variant="body2" noWrap title={session.userAgent}>
                    {session.userAgent}
                  </Typography>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(session.lastSeenAt)}</TableCell>
                <TableCell align="right">
                  {canEndSession(self, { id: session.userId, role: session.userRole }) && (
                    <RevokeButton session={session} />
                  )}
                </TableCell>
              </TableRow>
            ))}
            <ListStatusRow columns={6} state={list} empty={sessions.length === 0} what="the sessions">
              No live sessions.
            </ListStatusRow>
          </TableBody>
        </Table>
        {pager}
      </TableContainer>
    </>
  );
}
