/**
 * Support Chat (spec §2 `/chat`, issue 18 items 4 and 6): visitors are shown how to sign in or the contact form;
 * a signed-in user talks with our team in real time; staff (super+) answer the queue.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { canChat, isChatStaff } from '@tessera/common/support-chat';
import { useStore } from '../../lib/store';
import { PageHeading } from '../page-heading';
import { SignInPrompt } from './sign-in-prompt';
import { StaffChat } from './staff-chat';
import { UserChat } from './user-chat';

export default function ChatPage() {
  const self = useStore((s) => s.self);
  const staff = isChatStaff(self.role);
  return (
    <Box sx={{ maxWidth: staff ? 1100 : 760 }}>
      <PageHeading>Support Chat</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {staff
          ? 'Conversations waiting for an answer come first; unread messages are counted beside each.'
          : 'Talk with our team in real time. Links in messages open in a new tab.'}
      </Typography>
      {!canChat(self.role) ? <SignInPrompt /> : staff ? <StaffChat /> : <UserChat key={self.id} />}
    </Box>
  );
}
