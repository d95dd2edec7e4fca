/** Spec §2 user menu and card: who is signed in, their organization, Profile, and Sign Out or Stop Impersonating. */
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { ROLE_LABEL } from '@tessera/common/roles';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { logout } from '../../lib/session';
import { useStore } from '../../lib/store';
import { stopImpersonating } from './impersonation';

export function initials(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return `${words[0]?.[0]}${words[words.length - 1]?.[0]}`.toUpperCase();
  return (words[0] ?? email).slice(0, 1).toUpperCase() || '?';
}

/** Read by screen readers, not shown. */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  p: 0,
  m: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

export default function UserMenu() {
  const self = useStore((s) => s.self);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const impersonating = self.impersonator !== undefined;
  const shown = initials(self.name, self.email);
  return (
    <>
      {/* Named by its content: the initials shown, then "User menu" for screen readers only, so the name holds
          what is seen and speech input can say it (WCAG 2.5.3). */}
      <IconButton onClick={(e) => setAnchor(e.currentTarget)} sx={{ p: 0.5 }}>
        <Avatar
          src={self.image || undefined}
          alt=""
          sx={{ width: 32, height: 32, bgcolor: 'secondary.main', color: 'secondary.contrastText', fontSize: 15 }}
        >
          {shown}
        </Avatar>{' '}
        <Box component="span" sx={VISUALLY_HIDDEN}>
          User menu
        </Box>
      </IconButton>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box data-testid="user-card" sx={{ p: 2, minWidth: 260, maxWidth: 340 }}>
          <Typography variant="subtitle1" noWrap>
            {self.name || self.email}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {self.email}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {ROLE_LABEL[self.role]}
            {self.title ? ` · ${self.title}` : ''}
          </Typography>
          {self.organizationId !== null && (
            <Link component={RouterLink} to={`/organizations/${self.organizationId}`} onClick={close} variant="body2">
              {self.organizationName || 'Your organization'}
            </Link>
          )}
          <Link
            component={RouterLink}
            to={`/users/${self.id}#keys`}
            onClick={close}
            variant="body2"
            sx={{ display: 'block' }}
          >
            Your API keys
          </Link>
          <Divider sx={{ my: 1.5 }} />
          <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
            <Button component={RouterLink} to="/profile" onClick={close}>
              Profile
            </Button>
            {impersonating ? (
              <Button
                variant="contained"
                onClick={() => {
                  close();
                  void stopImpersonating();
                }}
              >
                Stop Impersonating
              </Button>
            ) : (
              <Button
                variant="contained"
                onClick={() => {
                  close();
                  void logout();
                }}
              >
                Sign Out
              </Button>
            )}
          </Box>
        </Box>
      </Popover>
    </>
  );
}
