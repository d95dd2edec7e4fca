/**
 * The message box: Enter sends, Shift+Enter starts a new line; blank text is not sent, and the box holds at most
 * the message limit. What was typed stays when sending fails (the client has shown why).
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { CHAT_LIMITS } from '@tessera/common/support-chat';
import { type KeyboardEvent, useState } from 'react';

interface Props {
  onSend(text: string): Promise<void>;
  onTyping(): void;
  disabled?: boolean;
}

export function Composer({ onSend, onTyping, disabled = false }: Props) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);

  async function send() {
    const trimmed = text.trim();
    if (trimmed === '' || busy) return;
    setBusy(true);
    try {
      await onSend(trimmed);
      setText('');
    } catch {
      // the API client has shown why; the text stays to try again
    } finally {
      setBusy(false);
    }
  }

  function keyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <TextField
        label="Message"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() !== '') onTyping();
        }}
        onKeyDown={keyDown}
        multiline
        minRows={2}
        maxRows={8}
        fullWidth
        disabled={disabled}
        helperText={`Enter sends, Shift+Enter starts a new line. ${text.length}/${CHAT_LIMITS.message}`}
        slotProps={{ htmlInput: { maxLength: CHAT_LIMITS.message, 'data-testid': 'chat-input' } }}
      />
      <Button
        variant="contained"
        onClick={() => void send()}
        disabled={disabled || busy || text.trim() === ''}
        sx={{ mt: 1 }}
      >
        Send
      </Button>
    </Stack>
  );
}
