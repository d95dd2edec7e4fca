import { DRAWER_BREAKPOINT_PX, DRAWER_FULL_BREAKPOINT_PX } from '@tessera/common/constants';

export type DrawerMode = 'full' | 'rail' | 'icon';

/** Spec §2: permanent at 760 px or more, as a rail below 1040 px, icon-only below 760 px. */
export function drawerMode(width: number): DrawerMode {
  if (width >= DRAWER_FULL_BREAKPOINT_PX) return 'full';
  if (width >= DRAWER_BREAKPOINT_PX) return 'rail';
  return 'icon';
}
