/** One conversation: its messages, the composer while it is open, and for staff the close and reopen buttons. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatDate } from '@tessera/common/dates';
import type { ChatConversation, ChatSide } from '@tessera/common/support-chat';
import { useState } from 'react';
import { api } from '../../lib/api';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { useConversation } from './use-conversation';

interface Props {
  initial: ChatConversation;
  side: ChatSide;
  /** Shown when the conversation is closed (the user's page offers a new one). */
  closedAction?: React.ReactNode;
}

export function ConversationPanel({ initial, side, closedAction }: Props) {
  const { conversation, setConversation, messages, hasOlder, loadOlder, otherTyping, send, typed } = useConversation(
    initial,
    side,
  );
  const [busy, setBusy] = useState(false);
  const open = conversation.status === 'open';

  async function setStatus(action: 'close' | 'reopen') {
    setBusy(true);
    try {
      const reply = await api.post<{ chatConversation: ChatConversation }>(
        `/v2/chat/conversations/${conversation.id}/${action}`,
      );
      setConversation(reply.chatConversation);
    } catch {
      // the client has shown why
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box component="section" aria-labelledby={`chat-${conversation.id}-title`} data-testid="chat-conversation">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Typography id={`chat-${conversation.id}-title`} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {side === 'staff' ? conversation.userName || conversation.userEmail : 'Your conversation'}
        </Typography>
        {side === 'staff' && (
          <Button
            size="small"
            variant="outlined"
            disabled={busy}
            onClick={() => void setStatus(open ? 'close' : 'reopen')}
          >
            {open ? 'Close conversation' : 'Reopen conversation'}
          </Button>
        )}
      </Stack>
      {side === 'staff' && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
          {conversation.userEmail} · started {formatDate(conversation.createdAt)}
        </Typography>
      )}
      <MessageList
        conversation={conversation}
        messages={messages}
        side={side}
        otherTyping={otherTyping}
        onOlder={hasOlder ? loadOlder : undefined}
        empty={side === 'staff' ? 'No messages yet.' : 'Write your question below: our team answers here.'}
      />
      {open ? (
        <Composer onSend={send} onTyping={typed} />
      ) : (
        <Alert severity="info" action={closedAction} data-testid="chat-closed">
          This conversation was closed{conversation.closedAt ? ` on ${formatDate(conversation.closedAt)}` : ''}.
        </Alert>
      )}
    </Box>
  );
}
