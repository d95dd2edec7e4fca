/**
 * A signed-in user's side: their open conversation (or the latest closed one, with a way to start anew), the
 * notice that the answer will come by mail while no staff member is connected, and a first message that opens a
 * conversation when there is none.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { CHAT_MESSAGES, type ChatConversation, type ChatMessage } from '@tessera/common/support-chat';
import { useEffect, useState } from 'react';
import { api } from '../../lib/api';
import { Composer } from './composer';
import { ConversationPanel } from './conversation-panel';
import { useStaffOnline } from './use-presence';

export function UserChat() {
  const [conversation, setConversation] = useState<ChatConversation | null | undefined>(undefined);
  const [fresh, setFresh] = useState(false);
  const staffOnline = useStaffOnline();

  useEffect(() => {
    let live = true;
    api
      .get<{ chatConversations: ChatConversation[] }>('/v2/chat/conversations')
      .then((reply) => live && setConversation(reply.chatConversations[0] ?? null))
      .catch(() => live && setConversation(null));
    return () => {
      live = false;
    };
  }, []);

  async function start(text: string) {
    const opened = await api.post<{ chatConversation: ChatConversation }>('/v2/chat/conversations');
    await api.post<{ chatMessage: ChatMessage }>(`/v2/chat/conversations/${opened.chatConversation.id}/messages`, {
      text,
    });
    setFresh(false);
    setConversation(opened.chatConversation);
  }

  const notice = staffOnline === false && (
    <Alert severity="info" sx={{ mb: 2 }} data-testid="chat-no-staff">
      {CHAT_MESSAGES.noStaff}
    </Alert>
  );

  if (conversation === undefined) return <CircularProgress aria-label="Loading your conversation" />;
  if (conversation === null || fresh) {
    return (
      <Box component="section" aria-labelledby="chat-new-title" data-testid="chat-new">
        {notice}
        <Typography id="chat-new-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          New conversation
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Ask us anything about the API, your contract or your data: our team answers here.
        </Typography>
        <Composer onSend={start} onTyping={() => undefined} />
      </Box>
    );
  }
  return (
    <>
      {conversation.status === 'open' && notice}
      <ConversationPanel
        key={conversation.id}
        initial={conversation}
        side="user"
        closedAction={
          <Button color="inherit" size="small" onClick={() => setFresh(true)}>
            Start a new conversation
          </Button>
        }
      />
    </>
  );
}
