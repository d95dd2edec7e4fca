/**
 * While a super or root acts as a customer (spec §4 impersonation), a bar under the top bar says so on every page:
 * who is acting as whom, and a button that ends it (issue 32 item 2). It is a labelled region, in a colour of its
 * own with text at 4.5:1 or more in both themes, and part of the fixed top bar, whose measured height the page and
 * the drawer start below, so it covers nothing at any width.
 */
import SupervisorAccount from '@mui/icons-material/SupervisorAccount';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { AUTH_PATHS } from '@tessera/common/auth-paths';
import { ROLE_LABEL, type Role } from '@tessera/common/roles';
import { useEffect, useState } from 'react';
import { request } from '../../lib/api';
import { useStore } from '../../lib/store';
import { FOCUS_RING_VAR } from '../theme';
import { stopImpersonating } from './impersonation';

interface Impersonator {
  id: number;
  name: string;
  email: string;
  role: Role;
}

export default function ImpersonationBar() {
  const self = useStore((s) => s.self);
  const impersonatorId = self.impersonator;
  const stored = useStore((s) => s.areas.impersonation as { impersonator?: Impersonator } | undefined);
  const staff = stored?.impersonator?.id === impersonatorId ? stored?.impersonator : undefined;
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setBusy(false);
    if (impersonatorId === undefined) return;
    // Only the name is missing without it: the bar shows the rest, so a failure here needs no alert.
    request('GET', AUTH_PATHS.impersonation, { claim: () => true }).catch(() => undefined);
  }, [impersonatorId]);

  if (impersonatorId === undefined) return null;
  const target = self.name || self.email;
  const where = self.organizationName ? `, ${self.organizationName}` : '';
  return (
    <Box
      component="section"
      aria-label="Impersonation"
      data-testid="impersonation-bar"
      sx={(theme) => {
        const bg = theme.palette.mode === 'light' ? theme.palette.info.dark : theme.palette.info.light;
        const fg = theme.palette.getContrastText(bg);
        return {
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          columnGap: 1.5,
          rowGap: 0.5,
          px: 2,
          py: 0.75,
          bgcolor: bg,
          color: fg,
          [FOCUS_RING_VAR]: fg,
        };
      }}
    >
      <SupervisorAccount aria-hidden fontSize="small" />
      <Typography variant="body2" sx={{ flex: '1 1 14rem', minWidth: 0, overflowWrap: 'anywhere' }}>
        {staff ? (
          <>
            <strong>{staff.name || staff.email}</strong> ({ROLE_LABEL[staff.role]}) is impersonating{' '}
          </>
        ) : (
          'Impersonating '
        )}
        <strong>{target}</strong> ({ROLE_LABEL[self.role]}
        {where}).
      </Typography>
      <Button
        size="small"
        variant="outlined"
        color="inherit"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          stopImpersonating().catch(() => setBusy(false)); // the client has shown why
        }}
      >
        Stop Impersonating
      </Button>
    </Box>
  );
}
