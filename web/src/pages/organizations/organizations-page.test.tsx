import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import OrganizationsPage from './organizations-page';

setupPageTests();

const ORGANIZATIONS = {
  3: { id: 3, name: 'Acme', emailDomain: 'acme.test', acceptUsers: true, createdAt: '', updatedAt: '' },
  4: { id: 4, name: 'Globex', emailDomain: null, acceptUsers: false, createdAt: '', updatedAt: '' },
};

function rows() {
  return screen.queryAllByTestId('organization-row').map((row) => row.textContent);
}

describe('organizations list', () => {
  it('shows super+ every organization from the store, with add, edit and delete', async () => {
    signIn(user(1, 'super', null));
    network.on('GET /v2/organizations', { body: { organizations: ORGANIZATIONS } });
    renderPage(<OrganizationsPage />);
    await waitFor(() => expect(rows()).toEqual(['Acmeacme.testYes', 'GlobexNo']));
    expect(screen.getByRole('link', { name: 'Add Organization' }).getAttribute('href')).toBe('/organizations/add');
    expect(screen.getByRole('link', { name: 'Edit Globex' }).getAttribute('href')).toBe('/organizations/edit/4');
    expect(screen.getByRole('button', { name: 'Delete Globex' })).toBeTruthy();
  });

  it('shows an admin their own organization only, which they may edit but not delete', async () => {
    signIn(user(2, 'admin', 3));
    network.on('GET /v2/organizations', { body: { organizations: ORGANIZATIONS } });
    renderPage(<OrganizationsPage />);
    await waitFor(() => expect(rows()).toEqual(['Acmeacme.testYes']));
    expect(screen.getByRole('link', { name: 'Edit Acme' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(screen.queryByText('Add Organization')).toBeNull();
  });

  it('shows a user their own organization without actions', async () => {
    signIn(user(5, 'user', 3));
    network.on('GET /v2/organizations', { body: { organizations: { 3: ORGANIZATIONS[3] } } });
    renderPage(<OrganizationsPage />);
    await waitFor(() => expect(rows()).toEqual(['Acmeacme.testYes']));
    expect(screen.queryByRole('link', { name: /^Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
  });

  it('deletes after confirmation in the dialog; the reply with deletedAt removes the row', async () => {
    signIn(user(1, 'root', null));
    network.on('GET /v2/organizations', { body: { organizations: ORGANIZATIONS } });
    network.on('DELETE /v2/organizations/4', {
      body: { organizations: { 4: { ...ORGANIZATIONS[4], deletedAt: '2026-01-01T00:00:00Z' } } },
    });
    renderPage(<OrganizationsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Globex' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('confirm-text').textContent).toContain('Globex');
    expect(network.calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rows()).toEqual(['Acmeacme.testYes']));
    expect(network.calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/v2/organizations/4' });
  });

  it('keeps the row and shows the server’s reason when it refuses (409 while it has users)', async () => {
    signIn(user(1, 'super', null));
    network.on('GET /v2/organizations', { body: { organizations: ORGANIZATIONS } });
    network.on('DELETE /v2/organizations/3', { status: 409, body: { error: 'The organization still has users.' } });
    renderPage(<OrganizationsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Acme' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await screen.findByText('The organization still has users.');
    expect(rows()).toHaveLength(2);
  });

  it('cancelling the confirmation deletes nothing', async () => {
    signIn(user(1, 'super', null));
    network.on('GET /v2/organizations', { body: { organizations: ORGANIZATIONS } });
    renderPage(<OrganizationsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Acme' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(network.calls.map((c) => c.method)).toEqual(['GET']);
  });
});
