/** Spec §2 top bar: menu button (icon-only drawer), logo to /, offline warning, theme toggle, user menu. */
import Brightness4 from '@mui/icons-material/Brightness4';
import Brightness7 from '@mui/icons-material/Brightness7';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { PRODUCT_NAME } from '@tessera/common/constants';
import { hasRank } from '@tessera/common/roles';
import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { useDarkMode } from '../app';
import { Logo } from './logo';
import { OfflineIndicator } from './offline-indicator';

const UserMenu = lazy(() => import('./user-menu'));

export function TopBar({ onMenu }: { onMenu?: () => void }) {
  const role = useStore((s) => s.self.role);
  const dark = useDarkMode();
  const update = useSettings((s) => s.update);
  const { pathname } = useLocation();
  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar>
        {onMenu && (
          <IconButton
            edge="start"
            color="inherit"
            aria-label="Open menu"
            data-testid="nav-menu-button"
            onClick={onMenu}
            sx={{ mr: 1 }}
          >
            <MenuIcon />
          </IconButton>
        )}
        <Box
          component={Link}
          to="/"
          aria-label={`${PRODUCT_NAME} home`}
          sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none' }}
        >
          <Logo />
          <Typography variant="h6" component="span" sx={{ fontWeight: 600 }}>
            {PRODUCT_NAME}
          </Typography>
        </Box>
        <Box sx={{ flex: 1 }} />
        <OfflineIndicator />
        <IconButton
          color="inherit"
          aria-label="Toggle dark mode"
          title={dark ? 'Switch to light mode' : 'Switch to dark mode'}
          onClick={() => update({ darkMode: !dark })}
        >
          {dark ? <Brightness7 /> : <Brightness4 />}
        </IconButton>
        {hasRank(role, 'user') ? (
          <Suspense fallback={null}>
            <UserMenu />
          </Suspense>
        ) : (
          role === 'anonymous' &&
          pathname !== '/login' && (
            <Button color="inherit" component={Link} to="/login">
              Sign in
            </Button>
          )
        )}
      </Toolbar>
    </AppBar>
  );
}
