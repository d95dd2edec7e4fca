import { isMenuGroup, MENU, type MenuEntry, type MenuGroup } from '@tessera/common/menu';
import { describe, expect, it } from 'vitest';
import { groupMatches, visibleMenu } from './nav-menu';

const labels = (entries: MenuEntry[]) =>
  entries.map((e) => (isMenuGroup(e) ? `${e.label}: ${e.items.map((i) => i.label).join(', ')}` : e.label));

describe('menu by role (spec §2, §6)', () => {
  it('shows nothing below user', () => {
    expect(visibleMenu('anonymous')).toEqual([]);
    expect(visibleMenu('signer')).toEqual([]);
  });

  it('shows users and admins everything but System, and Webhooks from admin up', () => {
    const expected = [
      'Organizations',
      'Templates',
      'Bulk Jobs',
      'Subscriptions',
      'Usage',
      'Reference: Playground, API v2, Client Libraries',
      'Support: FAQ, Contact Us',
    ];
    expect(labels(visibleMenu('user'))).toEqual(expected);
    expect(labels(visibleMenu('admin'))).toEqual([...expected.slice(0, 3), 'Webhooks', ...expected.slice(3)]);
    expect(labels(visibleMenu('super'))).toContain('Webhooks');
  });

  it('shows super the System items it reaches, and root all of them', () => {
    expect(labels(visibleMenu('super')).at(-1)).toBe('System: Billing, Sessions, Segments');
    expect(labels(visibleMenu('root')).at(-1)).toBe(
      'System: Releases, Deployments, Clusters, Query, SSH, Billing, Sessions, Segments',
    );
  });

  it('highlights a group for its items and, for Support, anything under /support', () => {
    const support = MENU.find((e) => e.label === 'Support') as MenuGroup;
    const reference = MENU.find((e) => e.label === 'Reference') as MenuGroup;
    expect(groupMatches(support, '/support/tickets')).toBe(true);
    expect(groupMatches(support, '/faq')).toBe(true);
    expect(groupMatches(reference, '/playground')).toBe(true);
    expect(groupMatches(reference, '/usage')).toBe(false);
  });
});
