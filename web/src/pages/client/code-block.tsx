/** A block of text to copy: shown as written, with a copy button that says when it has copied. */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';

export function CodeBlock({ label, text, testId }: { label: string; text: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <Box sx={{ mb: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="subtitle2" component="h3">
          {label}
        </Typography>
        <Button size="small" startIcon={<ContentCopyIcon />} onClick={() => void copy()} aria-label={`Copy: ${label}`}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </Stack>
      <Box
        component="pre"
        data-testid={testId}
        // A long line scrolls sideways: focusable, so the keyboard can scroll it too (WCAG 2.1.1).
        tabIndex={0}
        role="region"
        aria-label={label}
        sx={{
          m: 0,
          p: 1.5,
          overflowX: 'auto',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'action.hover',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: 13,
        }}
      >
        {text}
      </Box>
    </Box>
  );
}
