/**
 * The console frame around every page (spec §2): top bar, drawer for signed-in users, alert stack, dialog
 * area and spinner. It starts each navigation and keeps the socket following the signed-in user.
 */
import Box from '@mui/material/Box';
import { hasRank } from '@tessera/common/roles';
import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { socket } from '../../lib/socket';
import { useStore } from '../../lib/store';
import { beginNavigation } from '../navigation';
import { AlertStack } from './alert-stack';
import { drawerOffset } from './drawer-offset';
import { PageSpinner } from './page-spinner';
import { TopBar, TopBarSpacer } from './top-bar';
import { useDrawerMode } from './use-drawer-mode';

// Signed-in and on-demand parts load separately, keeping them out of the sign-in page's first download.
const NavDrawer = lazy(() => import('./nav-drawer'));
const DialogArea = lazy(() => import('./dialog-area'));

function useNavigationBookkeeping(): void {
  const location = useLocation();
  const matches = useMatches();
  const pattern = matches[matches.length - 1]?.id ?? '*';
  // A layout effect, so it runs before the page's own effects (which may fill the fresh model).
  // biome-ignore lint/correctness/useExhaustiveDependencies: one navigation per location key
  useLayoutEffect(() => {
    if ((location.state as { modelSync?: boolean } | null)?.modelSync) return;
    beginNavigation(pattern, window.location.href, location.search, socket);
  }, [location.key]);
}

function useSocketFollowsUser(): void {
  const self = useStore((s) => s.self);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only who the user is matters to the socket
  useEffect(() => socket.follow(self), [self.id, self.role, self.organizationId]);
}

export function Shell() {
  useNavigationBookkeeping();
  useSocketFollowsUser();
  const role = useStore((s) => s.self.role);
  const mode = useDrawerMode();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const signedIn = hasRank(role, 'user');
  const hasDialog = useStore((s) => s.dialog !== null);
  const { key } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the temporary drawer closes on navigation
  useEffect(() => setDrawerOpen(false), [key]);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar onMenu={signedIn && mode === 'icon' ? () => setDrawerOpen(true) : undefined} />
      {signedIn && (
        <Suspense fallback={<Box sx={{ width: drawerOffset(mode), flexShrink: 0 }} />}>
          <NavDrawer mode={mode} role={role} open={drawerOpen} onClose={() => setDrawerOpen(false)} />
        </Suspense>
      )}
      <Box component="main" sx={{ flex: 1, minWidth: 0, p: { xs: 2, sm: 3 } }}>
        <TopBarSpacer />
        <AlertStack />
        <Outlet />
      </Box>
      {hasDialog && (
        <Suspense fallback={null}>
          <DialogArea />
        </Suspense>
      )}
      <PageSpinner />
    </Box>
  );
}
