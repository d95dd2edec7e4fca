/**
 * Open on a resting pointer, close on one that has left (spec §9 submenu delays): `enter` opens after
 * `openDelay` ms unless the pointer leaves first; `leave` closes after `closeDelay` ms unless it comes back.
 * A click or a key opens or closes at once.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface HoverIntent {
  open: boolean;
  enter(): void;
  leave(): void;
  toggle(): void;
  close(): void;
}

export function useHoverIntent(openDelay: number, closeDelay: number): HoverIntent {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stop = useCallback(() => clearTimeout(timer.current), []);
  useEffect(() => stop, [stop]);

  const enter = useCallback(() => {
    stop();
    timer.current = setTimeout(() => setOpen(true), openDelay);
  }, [stop, openDelay]);
  const leave = useCallback(() => {
    stop();
    timer.current = setTimeout(() => setOpen(false), closeDelay);
  }, [stop, closeDelay]);
  const toggle = useCallback(() => {
    stop();
    setOpen((o) => !o);
  }, [stop]);
  const close = useCallback(() => {
    stop();
    setOpen(false);
  }, [stop]);

  return { open, enter, leave, toggle, close };
}
