import type { ResourceParams } from '@tessera/common/routes';
import { USAGE_ALERT_DEFAULTS } from '@tessera/common/usage-alerts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import OrganizationPage from './organization-page';

setupPageTests();
// The Keys section lists the organization's keys (issue 15); administrators see its usage alerts (issue 16).
beforeEach(() => {
  network.on('GET /v2/keys', { body: { keys: {} } });
  const usageAlerts = { organizationId: 3, ...USAGE_ALERT_DEFAULTS, updatedAt: null, firings: [] };
  network.on('GET /v2/organizations/3/usage-alerts', { body: { usageAlerts } });
});

const ACME = { id: 3, name: 'Acme', emailDomain: 'acme.test', acceptUsers: true, createdAt: '', updatedAt: '' };
const member = (id: number, role: string, organizationId = 3) => ({
  id,
  email: `u${id}@acme.test`,
  name: `Person ${id}`,
  title: '',
  image: '',
  role,
  organizationId,
  organizationName: 'Acme',
  isActive: true,
  allowedRecordTypes: [],
  verifiedAt: null,
  createdAt: '',
  updatedAt: '',
});

function open(resource: ResourceParams) {
  return renderPage(<OrganizationPage {...({ resource } as PageProps)} />);
}

function serveAcme() {
  network.on('GET /v2/organizations/3', {
    body: { organizations: { 3: ACME }, users: { 7: member(7, 'admin'), 8: member(8, 'user') } },
  });
}

describe('organization page', () => {
  it('shows the organization and its users, linking to each', async () => {
    signIn(user(8, 'user'));
    serveAcme();
    open({ mode: 'view', ids: [3] });
    expect((await screen.findByTestId('page-title')).textContent).toBe('Acme');
    expect(screen.getByText('acme.test')).toBeTruthy();
    const links = screen.getAllByTestId('user-row').map((row) => within(row).getByRole('link'));
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Person 7', '/users/7'],
      ['Person 8', '/users/8'],
    ]);
    expect(screen.getByText('Organization Administrator')).toBeTruthy();
  });

  it.each([
    ['user', 3, []],
    ['admin', 3, ['Edit', 'Add User']],
    ['admin', 4, []],
    ['super', null, ['Edit', 'Delete', 'Add User']],
  ] as const)('offers a %s of organization %s: %j', async (role, organizationId, expected) => {
    signIn(user(1, role, organizationId));
    serveAcme();
    open({ mode: 'view', ids: [3] });
    await screen.findByTestId('page-title');
    const offered = ['Edit', 'Delete', 'Add User'].filter(
      (name) => screen.queryByRole('button', { name }) ?? screen.queryByRole('link', { name }),
    );
    expect(offered).toEqual(expected);
  });

  it('at /organizations/delete/{id} asks, deletes, and goes back to /organizations', async () => {
    signIn(user(1, 'super', null));
    serveAcme();
    network.on('DELETE /v2/organizations/3', { body: { organizations: { 3: { ...ACME, deletedAt: 'now' } } } });
    open({ mode: 'delete', ids: [3] });
    const dialog = await screen.findByRole('dialog');
    expect(network.calls.map((c) => c.method)).toEqual(['GET', 'GET']); // the organization and its keys
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(network.went).toEqual(['/organizations']));
    expect(network.calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/v2/organizations/3' });
  });

  it('at /organizations/delete/{id} a refusal (409) stays on the page with the server’s alert', async () => {
    signIn(user(1, 'super', null));
    serveAcme();
    network.on('DELETE /v2/organizations/3', { status: 409, body: { error: 'Remove its users first.' } });
    open({ mode: 'delete', ids: [3] });
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Remove its users first.');
    expect(screen.getByText('Conflict Error')).toBeTruthy();
    expect(network.went).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('at /organizations/delete/{id} cancelling returns to the organization', async () => {
    signIn(user(1, 'super', null));
    serveAcme();
    open({ mode: 'delete', ids: [3] });
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(network.went).toEqual(['/organizations/3']));
  });
});
