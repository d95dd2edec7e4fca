/**
 * The messages of a conversation as a live log (assistive technology reads each new one), with "Seen" under the
 * viewer's last message the other side has read, and the other side's typing indicator as a status line.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import type { ChatConversation, ChatMessage, ChatSide } from '@tessera/common/support-chat';
import { useEffect, useRef } from 'react';
import { MessageText } from './message-text';

interface Props {
  conversation: ChatConversation;
  messages: ChatMessage[] | null;
  side: ChatSide;
  otherTyping: boolean;
  /** Shown in an empty conversation. */
  empty: string;
  /** Offers the page of messages before the first one shown. */
  onOlder?: () => Promise<void>;
}

export function MessageList({ conversation, messages, side, otherTyping, empty, onOlder }: Props) {
  const end = useRef<HTMLDivElement>(null);
  const mine = (m: ChatMessage) => m.fromStaff === (side === 'staff');
  const otherRead = side === 'staff' ? conversation.userReadId : conversation.staffReadId;
  const lastSeen = messages?.filter((m) => mine(m) && m.id <= otherRead).at(-1)?.id;
  const lastId = messages?.at(-1)?.id ?? 0;

  // Follow the newest message (older pages loaded above do not move the view).
  useEffect(() => {
    if (lastId > 0) end.current?.scrollIntoView?.({ block: 'end' });
  }, [lastId]);

  return (
    <>
      <Box
        role="log"
        aria-live="polite"
        aria-label="Messages"
        tabIndex={0}
        data-testid="chat-log"
        sx={{
          height: { xs: '50vh', md: 420 },
          overflowY: 'auto',
          p: 2,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'background.default',
          display: 'flex',
          flexDirection: 'column',
          gap: 1.5,
        }}
      >
        {onOlder && (
          <Button size="small" sx={{ alignSelf: 'center' }} onClick={() => void onOlder().catch(() => undefined)}>
            Show earlier messages
          </Button>
        )}
        {messages === null ? (
          <CircularProgress aria-label="Loading messages" sx={{ alignSelf: 'center' }} />
        ) : messages.length === 0 ? (
          <Typography color="text.secondary">{empty}</Typography>
        ) : (
          messages.map((m) => (
            <Box
              key={m.id}
              data-testid="chat-message"
              sx={{ alignSelf: mine(m) ? 'flex-end' : 'flex-start', maxWidth: '85%', minWidth: 0 }}
            >
              <Box
                sx={{
                  px: 1.5,
                  py: 1,
                  borderRadius: 2,
                  bgcolor: mine(m) ? 'primary.main' : 'action.selected',
                  color: mine(m) ? 'primary.contrastText' : 'text.primary',
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                }}
              >
                <Typography variant="caption" component="p" sx={{ fontWeight: 500 }}>
                  {mine(m) ? 'You' : m.fromStaff ? 'Support' : conversation.userName || conversation.userEmail}
                </Typography>
                <Typography component="p" variant="body1">
                  <MessageText text={m.body} />
                </Typography>
              </Box>
              <Typography
                variant="caption"
                color="text.secondary"
                component="p"
                sx={{ textAlign: mine(m) ? 'right' : 'left', mt: 0.25 }}
              >
                {formatDate(m.createdAt)}
                {m.id === lastSeen && <span data-testid="chat-seen"> · Seen</span>}
              </Typography>
            </Box>
          ))
        )}
        <div ref={end} />
      </Box>
      <Typography role="status" variant="body2" color="text.secondary" sx={{ minHeight: 24, mt: 0.5 }}>
        {otherTyping ? (side === 'staff' ? 'The user is typing…' : 'Support is typing…') : ''}
      </Typography>
    </>
  );
}
