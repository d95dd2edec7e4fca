/** Spec §2 offline warning: shown once the socket has been disconnected for 3 s, gone when it is back. */
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
  if (!show) return null;
  return (
    <Box
      data-testid="offline-indicator"
      role="status"
      sx={{ display: 'flex', alignItems: 'center', gap: 1, mr: 1, minWidth: 0, color: 'warning.light' }}
    >
      <WarningAmber aria-hidden />
      <Typography variant="body2" noWrap>
        {OFFLINE_TEXT}
      </Typography>
    </Box>
  );
}
