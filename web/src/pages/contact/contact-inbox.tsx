/** Staff (super+): the messages received through Contact Us, waiting or handled, each marked handled by a click. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { ContactMessage } from '@tessera/common/contact';
import { formatDate } from '@tessera/common/dates';
import { useEffect, useState } from 'react';
import { api } from '../../lib/api';

type Filter = 'false' | 'true' | 'all';
const FILTERS: [Filter, string][] = [
  ['false', 'Waiting'],
  ['true', 'Handled'],
  ['all', 'All'],
];

export function ContactInbox() {
  const [filter, setFilter] = useState<Filter>('false');
  const [messages, setMessages] = useState<ContactMessage[] | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  useEffect(() => {
    let live = true;
    setMessages(null);
    api
      .get<{ contactMessages: ContactMessage[] }>('/v2/contact-messages', { handled: filter })
      .then((reply) => live && setMessages(reply.contactMessages))
      .catch(() => live && setMessages([]));
    return () => {
      live = false;
    };
  }, [filter]);

  async function mark(message: ContactMessage, handled: boolean) {
    setBusy(message.id);
    try {
      const { contactMessage } = await api.put<{ contactMessage: ContactMessage }>(
        `/v2/contact-messages/${message.id}`,
        { handled },
      );
      setMessages((list) =>
        (list ?? [])
          .map((m) => (m.id === contactMessage.id ? contactMessage : m))
          .filter((m) => filter === 'all' || (m.handledAt !== null) === (filter === 'true')),
      );
    } catch {
      // the client has shown why
    } finally {
      setBusy(null);
    }
  }

  return (
    <Box component="section" aria-labelledby="contact-inbox-title" sx={{ mt: 5 }} data-testid="contact-inbox">
      <Typography id="contact-inbox-title" variant="h5" component="h2" sx={{ mb: 2 }}>
        Messages received
      </Typography>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={filter}
        onChange={(_e, value: Filter | null) => value && setFilter(value)}
        aria-label="Show messages"
        sx={{ mb: 2 }}
      >
        {FILTERS.map(([value, label]) => (
          <ToggleButton key={value} value={value}>
            {label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {messages === null ? (
        <CircularProgress aria-label="Loading messages" />
      ) : messages.length === 0 ? (
        <Typography color="text.secondary">No messages.</Typography>
      ) : (
        <Stack spacing={2}>
          {messages.map((m) => (
            <Paper key={m.id} variant="outlined" sx={{ p: 2 }} data-testid="contact-message">
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
                <Typography component="h3" sx={{ fontWeight: 500 }}>
                  {m.name}
                </Typography>
                <Link href={`mailto:${m.email}`}>{m.email}</Link>
                {m.handledAt && <Chip size="small" color="success" label="Handled" />}
              </Stack>
              <Typography variant="body2" color="text.secondary">
                {[m.company, m.phone, formatDate(m.createdAt)].filter(Boolean).join(' · ')}
              </Typography>
              <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', my: 1 }}>{m.message}</Typography>
              <Button
                size="small"
                variant="outlined"
                disabled={busy === m.id}
                onClick={() => void mark(m, m.handledAt === null)}
              >
                {m.handledAt === null ? 'Mark handled' : 'Mark waiting'}
              </Button>
            </Paper>
          ))}
        </Stack>
      )}
    </Box>
  );
}
