/**
 * The organization's subscriptions (issue 33 item 2), newest first: the identity followed, what it follows (an
 * input and its normalized value, or the identity by id), the template, who made it (a user, through a key or the
 * console) and when, with Delete after the shared confirmation. The console has no identity page: ids are text.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import type { ApiKey } from '@tessera/common/entities';
import type { UserEntry } from '@tessera/common/resources';
import type { Subscription } from '@tessera/common/subscriptions';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useStore } from '../../lib/store';
import type { FetchState } from '../../lib/use-fetch';
import { ListStatusRow } from '../empty-row';
import { followsOf } from './subscription-values';

const COLUMNS = 6;

/** Read by screen readers, not shown; its cell is positioned, so it stays inside the scrolling table. */
const visuallyHidden = {
  position: 'absolute',
  top: 0,
  left: 0,
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** The user's name as the store has it (members of the organization), else 'User {id}'. */
export function userName(users: Record<string, UserEntry> | undefined, userId: number): string {
  const user = users?.[String(userId)];
  return user ? user.name || user.email : `User ${userId}`;
}

function MadeBy({ subscription }: { subscription: Subscription }) {
  const users = useStore((s) => s.areas.users) as Record<string, UserEntry> | undefined;
  const key = useStore((s) =>
    subscription.keyId === null
      ? undefined
      : (s.areas.keys as Record<string, ApiKey> | undefined)?.[subscription.keyId],
  );
  return (
    <>
      <Link component={RouterLink} to={`/users/${subscription.userId}`}>
        {userName(users, subscription.userId)}
      </Link>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {subscription.keyId === null ? (
          'In the console'
        ) : key ? (
          <>
            {'With key '}
            <Link component={RouterLink} to={`/keys/${key.id}`} color="inherit">
              {key.name}
            </Link>
          </>
        ) : (
          <>
            {'With key '}
            <Box component="span" sx={{ fontFamily: 'monospace' }}>
              {subscription.keyId}
            </Box>
          </>
        )}
      </Typography>
    </>
  );
}

export function SubscriptionsTable({
  subscriptions,
  load,
  templateName,
  onDelete,
  pager,
}: {
  subscriptions: Subscription[];
  load: FetchState;
  templateName: (id: number) => string;
  onDelete: (subscription: Subscription) => void;
  pager: ReactNode;
}) {
  return (
    <TableContainer component={Paper} variant="outlined" tabIndex={0} role="region" aria-label="Subscriptions table">
      <Table size="small" aria-label="Subscriptions">
        <TableHead>
          <TableRow>
            <TableCell>Identity</TableCell>
            <TableCell>Follows</TableCell>
            <TableCell>Template</TableCell>
            <TableCell>Made By</TableCell>
            <TableCell>Created</TableCell>
            <TableCell align="right" sx={{ position: 'relative' }}>
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {subscriptions.map((s) => {
            const follows = followsOf(s);
            return (
              <TableRow key={s.id} data-testid="subscription-row" data-subscription-id={s.id}>
                <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{s.identityId}</TableCell>
                <TableCell sx={{ minWidth: 180, maxWidth: 360 }}>
                  <Typography variant="body2">{follows.label}</Typography>
                  {follows.value !== null && (
                    <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                      {follows.value}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ minWidth: 100 }}>{templateName(s.templateId)}</TableCell>
                <TableCell sx={{ minWidth: 140 }}>
                  <MadeBy subscription={s} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(s.createdAt)}</TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    color="error"
                    onClick={() => onDelete(s)}
                    aria-label={`Delete the subscription to identity ${s.identityId}`}
                  >
                    Delete
                  </Button>
                </TableCell>
              </TableRow>
            );
          })}
          <ListStatusRow columns={COLUMNS} state={load} empty={false} what="the subscriptions">
            No subscriptions.
          </ListStatusRow>
        </TableBody>
      </Table>
      {pager}
    </TableContainer>
  );
}
