/**
 * The user's own sessions (GET /v2/sessions?mine=true, decision 0007): browser, IP and last seen, this one
 * marked. Each other one can be signed out, or all of them at once; signing out this one is a normal logout.
 */
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { RESOURCE_PATHS, type SessionEntry } from '@tessera/common/resources';
import { useState } from 'react';
import { api } from '../../lib/api';
import { useCollection } from '../../lib/collections';
import { logout } from '../../lib/session';
import { useStore } from '../../lib/store';
import { useFetchState } from '../../lib/use-fetch';
import { LoadError, showsLoadError } from '../load-error';
import { describeAgent } from './user-agent';

/** This session first, then the most recently seen. */
const thisOneFirst = (a: SessionEntry, b: SessionEntry) =>
  Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt);

function SessionItem({ session }: { session: SessionEntry }) {
  const [busy, setBusy] = useState(false);
  function signOut() {
    if (session.current) {
      void logout();
      return;
    }
    setBusy(true);
    // On success the reply carries deletedAt and the item leaves the list; a failure was alerted.
    api.del(`${RESOURCE_PATHS.sessions}/${session.id}`).catch(() => setBusy(false));
  }
  return (
    <ListItem
      divider
      data-testid="my-session"
      secondaryAction={
        <Button size="small" variant="outlined" disabled={busy} onClick={signOut}>
          Sign out
        </Button>
      }
    >
      <ListItemText
        primary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <span title={session.userAgent}>{describeAgent(session.userAgent)}</span>
            {session.current && <Chip size="small" color="primary" label="This session" />}
          </Stack>
        }
        secondary={`${session.ip} · last seen ${formatDate(session.lastSeenAt)}`}
        sx={{ pr: 10 }}
      />
    </ListItem>
  );
}

export function MySessions() {
  const selfId = useStore((s) => s.self.id);
  const all = useCollection<SessionEntry>('sessions', thisOneFirst);
  const sessions = all.filter((s) => s.userId === selfId);
  const [busy, setBusy] = useState(false);
  const others = sessions.filter((s) => !s.current).length;

  const load = useFetchState(RESOURCE_PATHS.sessions, { mine: true });

  async function signOutOthers() {
    setBusy(true);
    try {
      await api.del(RESOURCE_PATHS.sessions);
    } catch {
      // Alerted by the API client.
    } finally {
      setBusy(false);
    }
  }

  return (
    // Linkable as /profile#sessions.
    <Paper id="sessions" variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h6" component="h2">
          Your sessions
        </Typography>
        <Button color="error" disabled={busy || others === 0} onClick={() => void signOutOthers()}>
          Sign out everywhere else
        </Button>
      </Stack>
      <List dense disablePadding aria-label="Your sessions">
        {sessions.map((session) => (
          <SessionItem key={session.id} session={session} />
        ))}
      </List>
      {showsLoadError(load) ? (
        <LoadError what="your sessions" error={load.error} retrying={load.status === 'loading'} onRetry={load.retry} />
      ) : (
        load.status === 'loaded' &&
        sessions.length === 0 && <Typography color="text.secondary">No live sessions.</Typography>
      )}
    </Paper>
  );
}
