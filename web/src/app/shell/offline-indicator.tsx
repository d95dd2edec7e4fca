/**
 * Spec §2 offline warning: shown once the socket has been disconnected for 3 s, gone when it is back. A strip under
 * the top bar in the warning colour with its contrast text (issue 32 item 1: orange text on the green bar read at
 * 1.38:1), inside a status region that is always there, so screen readers announce it when it appears.
 */
import WarningAmber from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { OFFLINE_TEXT } from '@tessera/common/alerts';
import { OFFLINE_INDICATOR_DELAY_MS } from '@tessera/common/constants';
import { useEffect, useState } from 'react';
import { useStore } from '../../lib/store';

export function OfflineIndicator() {
  const online = useStore((s) => s.online);
  const [show, setShow] = useState(false);
  useEffect(() => {
    if (online) {
      setShow(false);
      return;
    }
    const timer = setTimeout(() => setShow(true), OFFLINE_INDICATOR_DELAY_MS);
    return () => clearTimeout(timer);
  }, [online]);
  return (
    <Box role="status">
      {show && (
        <Box
          data-testid="offline-indicator"
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            px: 2,
            py: 0.5,
            bgcolor: 'warning.main',
            color: 'warning.contrastText',
          }}
        >
          <WarningAmber aria-hidden fontSize="small" />
          <Typography variant="body2">{OFFLINE_TEXT}</Typography>
        </Box>
      )}
    </Box>
  );
}
