import { DRAWER_RAIL_WIDTH_PX, DRAWER_WIDTH_PX } from '@tessera/common/constants';
import type { DrawerMode } from '../../lib/drawer-mode';

/** The room the drawer takes from the page: its full width, the rail's, or none when icon-only. */
export function drawerOffset(mode: DrawerMode): number {
  if (mode === 'full') return DRAWER_WIDTH_PX;
  if (mode === 'rail') return DRAWER_RAIL_WIDTH_PX;
  return 0;
}
