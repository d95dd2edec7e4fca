import { useEffect, useState } from 'react';
import { type DrawerMode, drawerMode } from '../../lib/drawer-mode';

/** The drawer mode for the window's current width, following resizes. */
export function useDrawerMode(): DrawerMode {
  const [mode, setMode] = useState(() => drawerMode(window.innerWidth));
  useEffect(() => {
    const onResize = () => setMode(drawerMode(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mode;
}
