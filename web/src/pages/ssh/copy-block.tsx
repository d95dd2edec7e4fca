/** Text to copy (a token, a certificate, sshd_config lines): shown as code with a copy button and an optional download. */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';

export function CopyBlock(props: { text: string; label: string; testId: string; download?: string }) {
  const [copied, setCopied] = useState(false);
  const { text, label, testId, download } = props;
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
      <Box
        component="pre"
        data-testid={testId}
        aria-label={label}
        sx={{
          flex: 1,
          m: 0,
          p: 1,
          borderRadius: 1,
          bgcolor: 'action.hover',
          fontFamily: 'monospace',
          fontSize: '0.8125rem',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
        }}
      >
        {text}
      </Box>
      <Tooltip title={copied ? 'Copied' : `Copy ${label}`}>
        <IconButton
          aria-label={`Copy ${label}`}
          onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}
        >
          <ContentCopyIcon />
        </IconButton>
      </Tooltip>
      {download && (
        <Tooltip title={`Download ${download}`}>
          <IconButton
            aria-label={`Download ${download}`}
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(`${text}\n`)}`}
            download={download}
          >
            <DownloadIcon />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );
}
