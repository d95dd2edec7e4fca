/** React.lazy per module, with the spec §2 route-load failure rule. */
import { isGuardedModule } from '@tessera/common/routes';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { forgetUser } from '../lib/session';
import { PAGE_MODULES, type PageProps } from './page-modules';

const cache = new Map<string, LazyExoticComponent<ComponentType<PageProps>>>();

/** A guarded module that fails to load signs the user out to /login; any other reloads the page. */
export function onLoadFailure(module: string, location: Pick<Location, 'assign' | 'reload'> = window.location): void {
  if (isGuardedModule(module)) {
    forgetUser();
    location.assign('/login');
  } else {
    location.reload();
  }
}

export function lazyPage(module: string): LazyExoticComponent<ComponentType<PageProps>> {
  let page = cache.get(module);
  if (!page) {
    const load = PAGE_MODULES[module];
    if (!load) throw new Error(`No page module "${module}"`);
    page = lazy(() =>
      load().catch((err: unknown) => {
        console.error(err);
        onLoadFailure(module);
        return new Promise<never>(() => {}); // the browser is leaving; render nothing meanwhile
      }),
    );
    cache.set(module, page);
  }
  return page;
}
