/**
 * Spec §2: every console path, its page title, the rank its guard requires and the lazily loaded module.
 * Module names carry their guard as a prefix (user-*, super-*, root-*) because the route-load failure rule
 * of §2 depends on it.
 */
import { errorTitle, routeErrorCode } from './errors';
import type { Role } from './roles';

export interface RouteDef {
  /** react-router pattern */
  path: string;
  /** Page title, before the product name is put in front of it. */
  title: string | ((params: Record<string, string | undefined>) => string);
  /** The lowest rank allowed; below it the guard redirects to /login. */
  role: Role;
  /** Name of the lazily loaded page module. */
  module: string;
}

const PASSWORD_TITLES: Record<string, string> = {
  set: 'Set Password',
  change: 'Change Password',
  forgot: 'Forgot Password',
  reset: 'Reset Password',
};

export const PASSWORD_ACTIONS = ['set', 'change', 'forgot', 'reset'] as const;
export type PasswordAction = (typeof PASSWORD_ACTIONS)[number];

export const ROUTES: RouteDef[] = [
  { path: '/', title: 'Home', role: 'user', module: 'user-home' },
  { path: '/playground', title: 'Playground', role: 'user', module: 'user-playground' },
  { path: '/profile', title: 'Profile', role: 'user', module: 'user-profile' },
  {
    path: '/password/:action',
    title: (p) => PASSWORD_TITLES[p.action ?? ''] ?? 'Password',
    role: 'anonymous',
    module: 'password',
  },
  { path: '/billing', title: 'Billing', role: 'super', module: 'super-billing' },
  { path: '/segments', title: 'Segments', role: 'super', module: 'super-segments' },
  { path: '/clusters', title: 'Clusters', role: 'root', module: 'root-clusters' },
  { path: '/query', title: 'Query', role: 'root', module: 'root-query' },
  { path: '/ssh', title: 'SSH', role: 'root', module: 'root-ssh' },
  { path: '/contracts/:id', title: 'Contract', role: 'admin', module: 'user-contract' },
  { path: '/contracts/:action/:id', title: 'Contract', role: 'admin', module: 'user-contract' },
  { path: '/releases', title: 'Releases', role: 'root', module: 'root-releases' },
  { path: '/releases/:id', title: 'Release', role: 'root', module: 'root-release' },
  { path: '/releases/:action/:id', title: 'Release', role: 'root', module: 'root-release' },
  { path: '/deployments', title: 'Deployments', role: 'root', module: 'root-deployments' },
  { path: '/deployments/:id', title: 'Deployment', role: 'root', module: 'root-deployment' },
  { path: '/deployments/:action/:id', title: 'Deployment', role: 'root', module: 'root-deployment' },
  { path: '/sessions', title: 'Sessions', role: 'super', module: 'super-sessions' },
  { path: '/api', title: 'API Reference', role: 'anonymous', module: 'api-reference' },
  { path: '/client', title: 'Client Libraries', role: 'anonymous', module: 'client-libraries' },
  { path: '/login', title: 'Sign in', role: 'anonymous', module: 'login' },
  { path: '/signup', title: 'Sign Up', role: 'anonymous', module: 'signup' },
  { path: '/terms', title: 'Terms of Use', role: 'signer', module: 'terms' },
  { path: '/organizations', title: 'Organizations', role: 'user', module: 'user-organizations' },
  { path: '/organizations/:id', title: 'Organizations', role: 'user', module: 'user-organization' },
  { path: '/organizations/:action/:id', title: 'Organizations', role: 'user', module: 'user-organization' },
  { path: '/users/:id', title: 'User', role: 'user', module: 'user-user' },
  { path: '/users/:action/:id', title: 'User', role: 'user', module: 'user-user' },
  { path: '/keys/:id', title: 'API Key', role: 'user', module: 'user-key' },
  { path: '/keys/:action/:id', title: 'API Key', role: 'user', module: 'user-key' },
  { path: '/templates', title: 'Templates', role: 'user', module: 'user-templates' },
  { path: '/templates/:action', title: 'Templates', role: 'user', module: 'user-template' },
  { path: '/templates/:action/:id', title: 'Templates', role: 'user', module: 'user-template' },
  { path: '/usage', title: 'Usage', role: 'user', module: 'user-usage' },
  // Bulk jobs (issue 33 item 3): whoever may make lookups (user and above), as the API allows.
  { path: '/jobs', title: 'Bulk Jobs', role: 'user', module: 'user-jobs' },
  // Webhook endpoints (issue 33): an organization's administrators, super and root for every organization.
  { path: '/webhooks', title: 'Webhooks', role: 'admin', module: 'user-webhooks' },
  { path: '/webhooks/:id', title: 'Webhooks', role: 'admin', module: 'user-webhook' },
  { path: '/webhooks/:action/:id', title: 'Webhooks', role: 'admin', module: 'user-webhook' },
  // Change subscriptions (issue 33 item 2): any member of an organization, as the API allows.
  { path: '/subscriptions', title: 'Subscriptions', role: 'user', module: 'user-subscriptions' },
  { path: '/faq', title: 'Frequently Asked Questions', role: 'anonymous', module: 'faq' },
  { path: '/scoring', title: 'Match Scores Explained', role: 'anonymous', module: 'scoring' },
  { path: '/contact', title: 'Contact Us', role: 'anonymous', module: 'contact' },
  { path: '/chat', title: 'Support Chat', role: 'anonymous', module: 'chat' },
  { path: '/error', title: () => errorTitle(routeErrorCode(undefined)), role: 'anonymous', module: 'error' },
  { path: '/error/:code', title: (p) => errorTitle(routeErrorCode(p.code)), role: 'anonymous', module: 'error' },
  {
    path: '/error/:code/:message',
    title: (p) => errorTitle(routeErrorCode(p.code)),
    role: 'anonymous',
    module: 'error',
  },
];

export const NOT_FOUND_TITLE = 'Page Not Found';

export function routeTitle(route: RouteDef, params: Record<string, string | undefined>): string {
  return typeof route.title === 'function' ? route.title(params) : route.title;
}

export function documentTitle(page: string): string {
  return `Tessera - ${page}`;
}

/** Modules whose load failure signs the user out (spec §2 route-load failure). */
export function isGuardedModule(module: string): boolean {
  return module.startsWith('super-') || module.startsWith('user-');
}

// ---- Resource route pattern (spec §2) ----

export const RESOURCE_ACTIONS = ['add', 'edit', 'publish', 'delete'] as const;
export type ResourceAction = (typeof RESOURCE_ACTIONS)[number];
export type ResourceMode = 'create' | 'view' | 'edit' | 'publish' | 'delete';

export interface ResourceParams {
  mode: ResourceMode;
  /** Numeric ids; empty when creating from scratch. */
  ids: number[];
}

const ID_LIST = /^\d{1,15}(,\d{1,15})*$/;

/** Reads a comma-separated id list; null when any part is not a number. */
export function parseIdList(value: string): number[] | null {
  if (!ID_LIST.test(value)) return null;
  const ids = value.split(',').map(Number);
  return ids.every(Number.isSafeInteger) ? ids : null;
}

/**
 * Reads `/{collection}/{first}` or `/{collection}/{first}/{second}`:
 * a numeric id (or list) alone means view, 'add' in either place means create, and
 * edit/publish/delete followed by ids mean that action. Anything else is null (Page Not Found).
 */
export function parseResource(first: string | undefined, second?: string): ResourceParams | null {
  if (first === undefined) return null;
  if (second === undefined) {
    if (first === 'add') return { mode: 'create', ids: [] };
    const ids = parseIdList(first);
    return ids ? { mode: 'view', ids } : null;
  }
  if (!(RESOURCE_ACTIONS as readonly string[]).includes(first)) return null;
  if (first === 'add') {
    if (second === 'add') return { mode: 'create', ids: [] };
    const from = parseIdList(second);
    return from ? { mode: 'create', ids: from } : null;
  }
  const ids = second === 'add' ? null : parseIdList(second);
  if (!ids) return null;
  return { mode: first as Exclude<ResourceAction, 'add'>, ids };
}

/** Paths served by the API rather than the console; unknown ones answer 404 JSON. */
export const API_PREFIXES = ['/v1', '/v2', '/auth', '/oauth', '/ws', '/healthz'] as const;

/**
 * Also any other version (`/v3/…`) and anything under `/api/` (a client guessing at a base URL): an integrator's
 * typo gets a JSON 404, never the console's HTML. `/api` alone is the console's API reference page.
 */
const OTHER_API_PATH = /^\/(v\d+(\/|$)|api\/)/;

export function isApiPath(pathname: string): boolean {
  return API_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`)) || OTHER_API_PATH.test(pathname);
}

/**
 * Resource routes (spec §2 pattern): the ones taking an id, and /templates/{action}. Key ids are letters and
 * digits, not numbers (the documented exception of decision 0062), so the keys page reads its addresses itself
 * with the same pattern (parseKeyResource in key-settings.ts).
 */
export function isResourceRoute(path: string): boolean {
  if (path.startsWith('/keys/')) return false;
  return path.endsWith('/:id') || path === '/templates/:action';
}

/** Reads a resource route's parameters; null means Page Not Found. */
export function resourceParams(params: Record<string, string | undefined>): ResourceParams | null {
  return params.id === undefined
    ? parseResource(params.action)
    : parseResource(params.action ?? params.id, params.action ? params.id : undefined);
}
