/**
 * Staff's side (super+): the queue of conversations with unread counts, kept current by the queue channel, and
 * the chosen conversation (from the list, or `?conversation={id}` as the unanswered mail links it) to answer,
 * close or reopen. On a narrow screen the list and the conversation take turns.
 */
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import { CHAT_QUEUE_CHANNEL, type ChatConversation } from '@tessera/common/support-chat';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../lib/api';
import { socket } from '../../lib/socket';
import { ConversationPanel } from './conversation-panel';
import { useChatPushes } from './use-chat-pushes';

type Filter = 'open' | 'closed' | 'all';
const FILTERS: [Filter, string][] = [
  ['open', 'Open'],
  ['closed', 'Closed'],
  ['all', 'All'],
];

const waitingFirst = (a: ChatConversation, b: ChatConversation) => {
  if ((a.awaitingSince === null) !== (b.awaitingSince === null)) return a.awaitingSince === null ? 1 : -1;
  if (a.awaitingSince && b.awaitingSince && a.awaitingSince !== b.awaitingSince) {
    return a.awaitingSince < b.awaitingSince ? -1 : 1;
  }
  return b.lastMessageAt.localeCompare(a.lastMessageAt) || b.id - a.id;
};

export function StaffChat() {
  const [filter, setFilter] = useState<Filter>('open');
  const [queue, setQueue] = useState<ChatConversation[] | null>(null);
  const [search, setSearch] = useSearchParams();
  const selectedId = Number(search.get('conversation')) || null;
  const [selected, setSelected] = useState<ChatConversation | null>(null);

  useEffect(() => socket.watch(CHAT_QUEUE_CHANNEL), []);

  useEffect(() => {
    let live = true;
    setQueue(null);
    api
      .get<{ chatConversations: ChatConversation[] }>('/v2/chat/conversations', { status: filter })
      .then((reply) => live && setQueue(reply.chatConversations))
      .catch(() => live && setQueue([]));
    return () => {
      live = false;
    };
  }, [filter]);

  // The chosen conversation: from the queue when it is there, else asked for (a closed one, or a mail's link).
  useEffect(() => {
    if (selectedId === null) {
      setSelected(null);
      return;
    }
    if (selected?.id === selectedId) return;
    const inQueue = queue?.find((c) => c.id === selectedId);
    if (inQueue) {
      setSelected(inQueue);
      return;
    }
    let live = true;
    api
      .get<{ chatConversation: ChatConversation }>(`/v2/chat/conversations/${selectedId}/messages`)
      .then((reply) => live && setSelected(reply.chatConversation))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [selectedId, queue, selected?.id]);

  useChatPushes({
    conversation(next) {
      setQueue((list) => {
        if (list === null) return list;
        const others = list.filter((c) => c.id !== next.id);
        const belongs = filter === 'all' || next.status === filter;
        return (belongs ? [...others, next] : others).sort(waitingFirst);
      });
    },
  });

  const choose = (id: number | null) => {
    const next = new URLSearchParams(search);
    if (id === null) next.delete('conversation');
    else next.set('conversation', String(id));
    setSearch(next);
  };

  const list = (
    <Paper variant="outlined" component="nav" aria-label="Conversations" data-testid="chat-queue">
      <Box sx={{ p: 1.5, borderBottom: 1, borderColor: 'divider' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={filter}
          onChange={(_e, value: Filter | null) => value && setFilter(value)}
          aria-label="Show conversations"
        >
          {FILTERS.map(([value, label]) => (
            <ToggleButton key={value} value={value}>
              {label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      {queue === null ? (
        <CircularProgress aria-label="Loading conversations" sx={{ m: 2 }} />
      ) : queue.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          No conversations.
        </Typography>
      ) : (
        <List dense disablePadding sx={{ maxHeight: { md: 520 }, overflowY: 'auto' }}>
          {queue.map((c) => (
            <ListItem key={c.id} disablePadding>
              <ListItemButton
                selected={c.id === selectedId}
                onClick={() => choose(c.id)}
                data-testid="chat-queue-item"
                aria-current={c.id === selectedId ? 'true' : undefined}
              >
                <ListItemText
                  primary={c.userName || c.userEmail}
                  secondary={`${c.status === 'closed' ? 'Closed · ' : c.awaitingSince ? 'Waiting · ' : ''}${formatDate(c.lastMessageAt)}`}
                  slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                />
                <Badge
                  color="error"
                  badgeContent={c.unreadByStaff}
                  max={99}
                  sx={{ ml: 2 }}
                  slotProps={{
                    badge: { 'aria-label': `${c.unreadByStaff} unread`, 'data-testid': 'chat-unread' } as object,
                  }}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', md: 'minmax(220px, 300px) 1fr' },
        alignItems: 'start',
      }}
    >
      <Box sx={{ display: { xs: selectedId ? 'none' : 'block', md: 'block' } }}>{list}</Box>
      <Box sx={{ minWidth: 0 }}>
        {selectedId !== null && (
          <Button sx={{ display: { md: 'none' }, mb: 1 }} onClick={() => choose(null)}>
            Back to the queue
          </Button>
        )}
        {selected ? (
          <ConversationPanel key={selected.id} initial={selected} side="staff" />
        ) : (
          <Typography color="text.secondary" sx={{ display: { xs: 'none', md: 'block' } }}>
            Choose a conversation to answer.
          </Typography>
        )}
      </Box>
    </Box>
  );
}
