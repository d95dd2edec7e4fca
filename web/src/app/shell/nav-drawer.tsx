/**
 * Spec §2 drawer: permanent and 200 px wide from 1040 px; a 56 px rail from 760 px that expands to 200 px
 * on hover or focus, and stays so while one of its groups' flyouts is open; below 760 px a temporary drawer
 * opened from the top bar's menu button.
 */
import Drawer from '@mui/material/Drawer';
import { DRAWER_RAIL_WIDTH_PX, DRAWER_WIDTH_PX } from '@tessera/common/constants';
import type { Role } from '@tessera/common/roles';
import { useCallback, useState } from 'react';
import type { DrawerMode } from '../../lib/drawer-mode';
import { TOP_BAR_HEIGHT_VAR } from '../theme';
import { drawerOffset } from './drawer-offset';
import { NavMenu } from './nav-menu';
import { TopBarSpacer } from './top-bar';

/** The drawer scrolls under the fixed top bar: a link focused by Tab scrolls clear of it (WCAG 2.4.11). */
const CLEAR_OF_TOP_BAR = `var(${TOP_BAR_HEIGHT_VAR}, 64px)`;

interface Props {
  mode: DrawerMode;
  role: Role;
  /** Icon mode only: whether the temporary drawer is open. */
  open: boolean;
  onClose: () => void;
}

export default function NavDrawer({ mode, role, open, onClose }: Props) {
  const [pointerIn, setPointerIn] = useState(false);
  const [focusIn, setFocusIn] = useState(false);
  const [flyouts, setFlyouts] = useState<ReadonlySet<string>>(new Set());
  const onFlyoutChange = useCallback(
    (group: string, isOpen: boolean) =>
      setFlyouts((current) => {
        if (current.has(group) === isOpen) return current;
        const next = new Set(current);
        if (isOpen) next.add(group);
        else next.delete(group);
        return next;
      }),
    [],
  );
  const expanded = pointerIn || focusIn || flyouts.size > 0;
  const paperData = { 'data-testid': 'nav-drawer', 'data-mode': mode } as Record<string, string>;

  if (mode === 'icon') {
    return (
      <Drawer
        variant="temporary"
        open={open}
        onClose={onClose}
        slotProps={{ paper: { ...paperData, sx: { width: DRAWER_WIDTH_PX, scrollPaddingTop: CLEAR_OF_TOP_BAR } } }}
      >
        <TopBarSpacer />
        <NavMenu role={role} compact={false} onNavigate={onClose} />
      </Drawer>
    );
  }

  const rail = mode === 'rail';
  const width = rail && !expanded ? DRAWER_RAIL_WIDTH_PX : DRAWER_WIDTH_PX;
  return (
    <Drawer
      variant="permanent"
      sx={{ width: drawerOffset(mode), flexShrink: 0 }}
      slotProps={{
        paper: {
          ...paperData,
          onMouseEnter: rail ? () => setPointerIn(true) : undefined,
          onMouseLeave: rail
            ? (event: React.MouseEvent<HTMLElement>) => {
                setPointerIn(false);
                // A focused link that went away (a flyout closed by the navigation it made) fires no blur.
                setFocusIn(event.currentTarget.contains(document.activeElement));
              }
            : undefined,
          onFocus: rail ? () => setFocusIn(true) : undefined,
          onBlur: rail
            ? (event: React.FocusEvent<HTMLElement>) => {
                if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusIn(false);
              }
            : undefined,
          sx: {
            width,
            overflowX: 'hidden',
            boxSizing: 'border-box',
            transition: (theme) => theme.transitions.create('width', { duration: theme.transitions.duration.shorter }),
            boxShadow: rail && expanded ? 8 : 0,
            scrollPaddingTop: CLEAR_OF_TOP_BAR,
          },
        },
      }}
    >
      <TopBarSpacer />
      <NavMenu role={role} compact={rail && !expanded} flyouts={rail} onFlyoutChange={onFlyoutChange} />
    </Drawer>
  );
}
