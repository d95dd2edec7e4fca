/**
 * Spec §2 navigation behaviour. `beginNavigation` runs when the location changes (before pages' effects, and
 * before a lazily loaded page's code has arrived); `finishNavigation` runs once the page has loaded and rendered.
 * The console does all scrolling itself (`takeOverScrolling`): the browser's own restoring of a position on Back
 * and Forward would fight the spec's rule of the top, or the hash anchor 72 px down.
 */
import { SCROLL_OFFSET_PX } from '@tessera/common/constants';
import { documentTitle } from '@tessera/common/routes';
import type { ClientMessage } from '@tessera/common/socket';
import { useStore } from '../lib/store';

let hitIndex = 0;

export function resetHitIndex(): void {
  hitIndex = 0;
}

/** What a navigation tells the server over the socket. */
export interface NavigationSocket {
  send(message: ClientMessage): void;
  /** Spec §7 `clear`: the page's model and what the server pushes for it are gone. */
  clear(): void;
}

/** Stops the browser restoring scroll positions on Back and Forward; `finishNavigation` decides instead. */
export function takeOverScrolling(history: Pick<History, 'scrollRestoration'> = window.history): void {
  history.scrollRestoration = 'manual';
}

export function beginNavigation(pattern: string, href: string, search: string, socket: NavigationSocket): void {
  const store = useStore.getState();
  const first = store.route === null;
  if (!first) {
    store.set({ model: {} });
    socket.clear();
  }
  store.set({ route: { pattern, url: href }, loading: true });
  store.clearAlerts();
  socket.send(['hit', { index: hitIndex++, url: href }]);
  // Query-string parameters are synced into the page model.
  store.setModel({ ...useStore.getState().model, ...Object.fromEntries(new URLSearchParams(search)) });
}

export function finishNavigation(pageTitle: string, hash: string): void {
  useStore.getState().set({ loading: false });
  document.title = documentTitle(pageTitle);
  const target = hash ? document.getElementById(decodeHash(hash)) : null;
  if (target) {
    const top = target.getBoundingClientRect().top + window.scrollY - SCROLL_OFFSET_PX;
    window.scrollTo({ top, behavior: 'smooth' });
  } else {
    window.scrollTo({ top: 0 });
  }
}

/** The search string for a page model: its non-empty values. */
export function modelSearch(model: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(model)) if (v !== '') params.set(k, v);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The anchor id a hash names; a malformed escape is taken literally rather than breaking the page. */
export function decodeHash(hash: string): string {
  const raw = hash.replace(/^#/, '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
