/** React.lazy per module, with the spec §2 route-load failure rule. */
import { isGuardedModule } from '@tessera/common/routes';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { forgetUser } from '../lib/session';
import { PAGE_MODULES, type PageProps } from './page-modules';

const cache = new Map<string, LazyExoticComponent<ComponentType<PageProps>>>();

const RELOADED_KEY = 'tessera-reloaded';
const RELOAD_GUARD_MS = 10_000;

/**
 * A guarded module that fails to load signs the user out to /login; any other reloads the page (a new
 * release may have replaced its chunk). A failure again within 10 s of such a reload does not reload: it
 * returns false and the page shows the error instead of hammering the server.
 */
export function onLoadFailure(
  module: string,
  location: Pick<Location, 'assign' | 'reload'> = window.location,
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  now: number = Date.now(),
): boolean {
  if (isGuardedModule(module)) {
    forgetUser();
    location.assign('/login');
    return true;
  }
  const last = Number(storage.getItem(RELOADED_KEY) ?? 0);
  if (now - last < RELOAD_GUARD_MS) return false;
  storage.setItem(RELOADED_KEY, String(now));
  location.reload();
  return true;
}

export function lazyPage(module: string): LazyExoticComponent<ComponentType<PageProps>> {
  let page = cache.get(module);
  if (!page) {
    const load = PAGE_MODULES[module];
    if (!load) throw new Error(`No page module "${module}"`);
    page = lazy(() =>
      load().catch((err: unknown) => {
        console.error(err);
        if (!onLoadFailure(module)) throw err; // shown by the router's error page
        return new Promise<never>(() => {}); // the browser is leaving; render nothing meanwhile
      }),
    );
    cache.set(module, page);
  }
  return page;
}
