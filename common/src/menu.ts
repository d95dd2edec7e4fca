/** Spec §2 navigation menu and §6 menu minimums. */
import type { Role } from './roles';

export interface MenuItem {
  label: string;
  path: string;
  /** Minimum role, compared numerically. */
  role: Role;
  /** Icon name from the console's icon set. */
  icon: string;
  /** Links to the external CI host unless the console runs on a local or CI host. */
  ciHosted?: boolean;
}

export interface MenuGroup {
  label: string;
  /** Path prefix that highlights the group (the Support group matches /support). */
  match?: string;
  role: Role;
  icon: string;
  items: MenuItem[];
}

export type MenuEntry = MenuItem | MenuGroup;

export function isMenuGroup(entry: MenuEntry): entry is MenuGroup {
  return 'items' in entry;
}

export const MENU: MenuEntry[] = [
  { label: 'Organizations', path: '/organizations', role: 'user', icon: 'business' },
  { label: 'Templates', path: '/templates', role: 'user', icon: 'template' },
  { label: 'Bulk Jobs', path: '/jobs', role: 'user', icon: 'jobs' },
  { label: 'Webhooks', path: '/webhooks', role: 'admin', icon: 'webhook' },
  { label: 'Subscriptions', path: '/subscriptions', role: 'user', icon: 'subscription' },
  { label: 'Usage', path: '/usage', role: 'user', icon: 'usage' },
  {
    label: 'Reference',
    role: 'user',
    icon: 'reference',
    items: [
      { label: 'Playground', path: '/playground', role: 'user', icon: 'playground' },
      { label: 'API v2', path: '/api', role: 'user', icon: 'api' },
      { label: 'Client Libraries', path: '/client', role: 'user', icon: 'client' },
    ],
  },
  {
    label: 'Support',
    match: '/support',
    role: 'user',
    icon: 'support',
    items: [
      { label: 'FAQ', path: '/faq', role: 'user', icon: 'faq' },
      { label: 'Contact Us', path: '/contact', role: 'user', icon: 'contact' },
    ],
  },
  {
    label: 'System',
    role: 'super',
    icon: 'system',
    items: [
      { label: 'Releases', path: '/releases', role: 'root', icon: 'releases', ciHosted: true },
      { label: 'Deployments', path: '/deployments', role: 'root', icon: 'deployments', ciHosted: true },
      { label: 'Clusters', path: '/clusters', role: 'root', icon: 'clusters', ciHosted: true },
      { label: 'Query', path: '/query', role: 'root', icon: 'query' },
      { label: 'SSH', path: '/ssh', role: 'root', icon: 'ssh', ciHosted: true },
      { label: 'Billing', path: '/billing', role: 'super', icon: 'billing' },
      { label: 'Sessions', path: '/sessions', role: 'super', icon: 'sessions' },
      { label: 'Segments', path: '/segments', role: 'super', icon: 'segments' },
    ],
  },
];

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i;

/** Local hosts, and the CI host itself, serve the CI pages in-app (spec §2). */
export function isLocalOrCiHost(hostname: string, ciHost: string | null): boolean {
  if (LOOPBACK.test(hostname) || hostname.endsWith('.localhost') || hostname.endsWith('.local')) return true;
  return ciHost !== null && hostname.toLowerCase() === ciHost.toLowerCase();
}

/** Where a menu item links: in-app path, or the same path on the external CI host. */
export function menuHref(item: MenuItem, hostname: string, ciHost: string | null): { href: string; external: boolean } {
  if (!item.ciHosted || ciHost === null || isLocalOrCiHost(hostname, ciHost))
    return { href: item.path, external: false };
  return { href: `https://${ciHost}${item.path}`, external: true };
}

/** True when `pathname` is the item's path or below it. */
export function pathMatches(pathname: string, path: string): boolean {
  return path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
}
