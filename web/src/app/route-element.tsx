/** One route: guard, resource pattern, lazily loaded page, and the end of the navigation once it renders. */
import { hasRank, type Role } from '@tessera/common/roles';
import {
  isResourceRoute,
  PASSWORD_ACTIONS,
  type ResourceParams,
  type RouteDef,
  resourceParams,
  routeTitle,
} from '@tessera/common/routes';
import { Suspense, useEffect } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { signedOutByChoice } from '../lib/session';
import { useStore } from '../lib/store';
import { lazyPage } from './lazy-page';
import { finishNavigation } from './navigation';

const NOT_FOUND_ROUTE: RouteDef = { path: '*', title: 'Page Not Found', role: 'anonymous', module: 'error' };

function PageReady({ title }: { title: string }) {
  const location = useLocation();
  useEffect(() => {
    if ((location.state as { modelSync?: boolean } | null)?.modelSync) return;
    finishNavigation(title, location.hash);
  }, [location, title]);
  return null;
}

function Page({
  route,
  params,
  resource,
}: {
  route: RouteDef;
  params: Record<string, string | undefined>;
  resource: ResourceParams | null;
}) {
  const Component = lazyPage(route.module);
  return (
    <Suspense fallback={null}>
      <Component route={route} params={params} resource={resource} />
      <PageReady title={routeTitle(route, params)} />
    </Suspense>
  );
}

export function NotFound() {
  return <Page route={NOT_FOUND_ROUTE} params={{ code: '404' }} resource={null} />;
}

/**
 * Where a guard sends a visitor below the page's rank (spec §6): a signer to the agreement (as a 451 would);
 * anyone else to /login, an anonymous visitor with the page to return to after signing in.
 */
export function guardTarget(
  role: Role,
  required: Role,
  location: { pathname: string; search: string; hash: string },
): string {
  if (role === 'signer' && hasRank('user', required)) return '/terms';
  if (role !== 'anonymous') return '/login';
  const back = `${location.pathname}${location.search}${location.hash}`;
  return back === '/' ? '/login' : `/login?${new URLSearchParams({ returnTo: back })}`;
}

export function RouteElement({ route }: { route: RouteDef }) {
  const params = useParams();
  const role = useStore((s) => s.self.role);
  const location = useLocation();
  if (!hasRank(role, route.role)) {
    // Someone who chose to sign out goes to plain /login: the next person to sign in here starts at home.
    const target = signedOutByChoice() ? '/login' : guardTarget(role, route.role, location);
    return <Navigate to={target} replace />;
  }
  let resource: ResourceParams | null = null;
  if (isResourceRoute(route.path)) {
    resource = resourceParams(params);
    if (!resource) return <NotFound />;
  }
  if (route.path === '/password/:action' && !(PASSWORD_ACTIONS as readonly string[]).includes(params.action ?? '')) {
    return <NotFound />;
  }
  return <Page route={route} params={params} resource={resource} />;
}
