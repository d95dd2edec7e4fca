/**
 * Every page of the route table (common/src/routes.ts) at a concrete address, for checks that must hold on every
 * page, built now or later: each pattern's parameters filled with values its page accepts. Root reaches every
 * route; anonymous visitors get the routes open to them (and Page Not Found) as they see them.
 */
import { PASSWORD_ACTIONS, ROUTES, type RouteDef } from '@tessera/common/routes';

export interface PageVisit {
  /** The address to open, e.g. `/users/edit/1`. */
  path: string;
  /** The route pattern it stands for, e.g. `/users/:action/:id`. */
  pattern: string;
  /** Open it signed in as root, or as an anonymous visitor. */
  signedIn: boolean;
}

/** Values each named parameter of a pattern takes; a pattern with several gets every combination. */
const PARAMETER_VALUES: Record<string, (pattern: string) => string[]> = {
  action: (pattern) => {
    if (pattern === '/password/:action') return [...PASSWORD_ACTIONS];
    if (pattern === '/templates/:action') return ['add'];
    return ['edit'];
  },
  // Root is user 1 on a fresh database; a record that does not exist shows its page's own not-found answer.
  id: () => ['1'],
  code: () => ['500'],
  message: () => ['Something went wrong.'],
};

/** The concrete addresses of one route pattern. */
export function addressesOf(pattern: string): string[] {
  let paths = [''];
  for (const segment of pattern.split('/').slice(1)) {
    const values = segment.startsWith(':') ? (PARAMETER_VALUES[segment.slice(1)]?.(pattern) ?? []) : [segment];
    if (values.length === 0) throw new Error(`No sample value for ${segment} of ${pattern}`);
    paths = paths.flatMap((p) => values.map((v) => `${p}/${encodeURIComponent(v)}`));
  }
  return paths.map((p) => p || '/');
}

const NOT_FOUND: PageVisit[] = [
  { path: '/no/such/page', pattern: '*', signedIn: false },
  { path: '/no/such/page', pattern: '*', signedIn: true },
];

const visitsOf = (route: RouteDef, signedIn: boolean): PageVisit[] =>
  addressesOf(route.path).map((path) => ({ path, pattern: route.path, signedIn }));

/** Every route as root, every route open to anonymous visitors as one, and Page Not Found as both. */
export const EVERY_PAGE: PageVisit[] = [
  ...ROUTES.filter((r) => r.role === 'anonymous').flatMap((r) => visitsOf(r, false)),
  ...ROUTES.flatMap((r) => visitsOf(r, true)),
  ...NOT_FOUND,
];
