/**
 * Spec §2 top bar: menu button (icon-only drawer), logo to /, theme toggle, user menu; under it the status bars (the
 * offline warning, the impersonation bar). Its height, status bars included, is measured into CSS variables that
 * the page, the drawer and focus scrolling start below (TopBarSpacer, the theme's scroll-padding). Someone signed
 * in below 'user' (a Terms Signer, a Password Resetter) has no user menu (spec §6) but a 'Sign Out' button, so
 * the Terms page is no dead end (issue 32 item 3).
 */
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
import { lazy, type RefObject, Suspense, useLayoutEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { logout } from '../../lib/session';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { useDarkMode } from '../app';
import { TOP_BAR_HEIGHT_VAR } from '../theme';
import { Logo } from './logo';
import { OfflineIndicator } from './offline-indicator';

const UserMenu = lazy(() => import('./user-menu'));
// Only staff ever see it: it loads when an impersonation starts, not with the sign-in page.
const ImpersonationBar = lazy(() => import('./impersonation-bar'));

/** The status bars' height under the toolbar (0 without any), for TopBarSpacer. */
const STATUS_HEIGHT_VAR = '--tessera-status-bars-height';

/** Keeps the CSS variables at the top bar's and its status bars' heights as they come and go or wrap. */
function useMeasuredHeights(bar: RefObject<HTMLElement | null>, status: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const barEl = bar.current;
    const statusEl = status.current;
    if (!barEl || !statusEl) return;
    const root = document.documentElement.style;
    const measure = () => {
      root.setProperty(TOP_BAR_HEIGHT_VAR, `${barEl.offsetHeight}px`);
      root.setProperty(STATUS_HEIGHT_VAR, `${statusEl.offsetHeight}px`);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    // Its callbacks run after layout and before paint: the page never shows under a bar that just appeared.
    const observer = new ResizeObserver(measure);
    observer.observe(barEl);
    observer.observe(statusEl);
    return () => observer.disconnect();
  }, [bar, status]);
}

/** The room the fixed top bar takes at the top of the page and of the drawer. */
export function TopBarSpacer() {
  return (
    <>
      <Toolbar />
      <Box sx={{ height: `var(${STATUS_HEIGHT_VAR}, 0px)` }} />
    </>
  );
}

export function TopBar({ onMenu }: { onMenu?: () => void }) {
  const role = useStore((s) => s.self.role);
  const impersonating = useStore((s) => s.self.impersonator !== undefined);
  const dark = useDarkMode();
  const update = useSettings((s) => s.update);
  const { pathname } = useLocation();
  const barRef = useRef<HTMLElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  useMeasuredHeights(barRef, statusRef);
  return (
    <AppBar ref={barRef} position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
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
        ) : role === 'anonymous' ? (
          pathname !== '/login' && (
            <Button color="inherit" component={Link} to="/login">
              Sign in
            </Button>
          )
        ) : (
          <Button color="inherit" onClick={() => void logout()}>
            Sign Out
          </Button>
        )}
      </Toolbar>
      <Box ref={statusRef}>
        <OfflineIndicator />
        {impersonating && (
          <Suspense fallback={null}>
            <ImpersonationBar />
          </Suspense>
        )}
      </Box>
    </AppBar>
  );
}
