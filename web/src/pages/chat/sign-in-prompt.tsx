/** What an anonymous visitor sees: how to sign in to chat, or the contact form instead. */
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CHAT_MESSAGES } from '@tessera/common/support-chat';
import { Link as RouterLink } from 'react-router';

export function SignInPrompt() {
  const login = `/login?${new URLSearchParams({ returnTo: '/chat' })}`;
  return (
    <Paper variant="outlined" sx={{ p: 3, maxWidth: 560 }} data-testid="chat-sign-in">
      <Typography sx={{ mb: 2 }}>{CHAT_MESSAGES.signIn}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button component={RouterLink} to={login} variant="contained">
          Sign in to chat
        </Button>
        <Button component={RouterLink} to="/contact" variant="outlined">
          Write to us instead
        </Button>
      </Stack>
    </Paper>
  );
}
