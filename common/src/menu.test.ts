import { describe, expect, it } from 'vitest';
import { isLocalOrCiHost, isMenuGroup, MENU, type MenuItem, menuHref, pathMatches } from './menu';

const items = MENU.flatMap((e) => (isMenuGroup(e) ? e.items : [e]));
const item = (label: string) => items.find((i) => i.label === label)!;

describe('navigation menu (spec §2, §6)', () => {
  it('has the groups and items of the spec, in order', () => {
    expect(MENU.map((e) => e.label)).toEqual([
      'Organizations',
      'Templates',
      'Bulk Jobs', // issue 33 item 3, beyond spec §2: whoever may make lookups
      'Webhooks', // issue 33, beyond spec §2: administrators and above
      'Subscriptions', // issue 33 item 2, beyond spec §2: every member of an organization
      'Usage',
      'Reference',
      'Support',
      'System',
    ]);
    const system = MENU.find((e) => e.label === 'System');
    expect(system && isMenuGroup(system) && system.items.map((i) => i.label)).toEqual([
      'Releases',
      'Deployments',
      'Clusters',
      'Query',
      'SSH',
      'Billing',
      'Sessions',
      'Segments',
    ]);
  });

  it('puts the spec minimums on the system items', () => {
    const system = MENU.find((e) => e.label === 'System')!;
    expect(system.role).toBe('super');
    for (const l of ['Releases', 'Deployments', 'Clusters', 'Query', 'SSH']) expect(item(l).role).toBe('root');
    for (const l of ['Billing', 'Sessions', 'Segments']) expect(item(l).role).toBe('super');
  });

  it('links CI pages in-app on local or CI hosts, and to the CI host elsewhere', () => {
    const releases = item('Releases') as MenuItem;
    expect(menuHref(releases, 'localhost', 'ci.tessera.example')).toEqual({ href: '/releases', external: false });
    expect(menuHref(releases, '127.0.0.1', 'ci.tessera.example').external).toBe(false);
    expect(menuHref(releases, 'ci.tessera.example', 'ci.tessera.example').external).toBe(false);
    expect(menuHref(releases, 'console.tessera.example', 'ci.tessera.example')).toEqual({
      href: 'https://ci.tessera.example/releases',
      external: true,
    });
    expect(menuHref(releases, 'console.tessera.example', null).external).toBe(false);
    expect(menuHref(item('Billing'), 'console.tessera.example', 'ci.tessera.example').external).toBe(false);
    expect(isLocalOrCiHost('[::1]', null)).toBe(true);
  });

  it('highlights an item for its path and below it', () => {
    expect(pathMatches('/templates/edit/3', '/templates')).toBe(true);
    expect(pathMatches('/templatesx', '/templates')).toBe(false);
    expect(pathMatches('/usage', '/')).toBe(false);
    expect(pathMatches('/', '/')).toBe(true);
  });
});
