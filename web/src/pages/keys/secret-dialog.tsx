/**
 * The whole key, shown once after a creation or rotation: the key with a copy button, a curl line using it, and
 * the warning that it will not be shown again. Its own dialog, not the shell's, so that the secret lives only in
 * the state of the page that asked for it; closing it drops that state.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { presentedKey } from '@tessera/common/keys';
import { useState } from 'react';
import { sampleEmail, useSamples } from '../../lib/samples';
import { curlLine, type NewKey } from './key-api';

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Tooltip title={copied ? 'Copied' : label}>
      <IconButton
        aria-label={label}
        onClick={() => {
          void navigator.clipboard?.writeText(text).then(() => setCopied(true));
        }}
      >
        <ContentCopyIcon />
      </IconButton>
    </Tooltip>
  );
}

function Secret({ value, label, testId }: { value: string; label: string; testId: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
      <Box
        component="code"
        data-testid={testId}
        sx={{
          flex: 1,
          p: 1,
          borderRadius: 1,
          bgcolor: 'action.hover',
          fontFamily: 'monospace',
          fontSize: '0.875rem',
          overflowWrap: 'anywhere',
        }}
      >
        {value}
      </Box>
      <CopyButton text={value} label={label} />
    </Box>
  );
}

export function SecretDialog({
  newKey,
  rotated,
  onClose,
}: {
  newKey: NewKey | null;
  rotated?: boolean;
  onClose: () => void;
}) {
  const samples = useSamples(newKey?.mode ?? 'live');
  return (
    <Dialog open={newKey !== null} onClose={onClose} aria-labelledby="new-key-title" maxWidth="md" fullWidth>
      {newKey && (
        <>
          <DialogTitle id="new-key-title">
            {rotated ? 'New secret for' : 'New key'} {newKey.name}
          </DialogTitle>
          <DialogContent>
            <Alert severity="warning" sx={{ mb: 2 }}>
              Copy this key now: it will not be shown again. Only its last four characters are kept for display.
            </Alert>
            <Typography variant="subtitle2" component="p" gutterBottom>
              API key
            </Typography>
            <Secret value={presentedKey(newKey.mode, newKey.id, newKey.secret)} label="Copy the key" testId="new-key" />
            {newKey.mode === 'test' && (
              <Typography variant="body2" sx={{ mt: 1 }}>
                A test key answers from the sandbox, a fixed synthetic set of people, free of charge; it never sees real
                people.
              </Typography>
            )}
            <Typography variant="subtitle2" component="p" sx={{ mt: 2 }} gutterBottom>
              Try it
            </Typography>
            <Secret
              value={curlLine(newKey, window.location.origin, sampleEmail(samples))}
              label="Copy the curl line"
              testId="new-key-curl"
            />
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={onClose}>
              I have copied it
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
