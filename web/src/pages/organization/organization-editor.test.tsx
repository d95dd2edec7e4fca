import type { User } from '@tessera/common/entities';
import type { ResourceParams } from '@tessera/common/routes';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import OrganizationPage from './organization-page';

setupPageTests();

const ACME = { id: 3, name: 'Acme', emailDomain: 'acme.test', acceptUsers: false, createdAt: '', updatedAt: '' };

function open(resource: ResourceParams) {
  network.on('GET /v2/organizations/3', { body: { organizations: { 3: ACME }, users: {} } });
  return renderPage(<OrganizationPage {...({ resource } as PageProps)} />);
}

const field = (name: string) => screen.findByRole('textbox', { name });

describe('organization form', () => {
  it('creates one: checks the name and the domain rule, then posts and shows the new organization', async () => {
    signIn(user(1, 'super', null));
    network.on('POST /v2/organizations', ({ body }) => ({
      body: { organizations: { 12: { ...ACME, ...(body as object), id: 12 } } },
    }));
    open({ mode: 'create', ids: [] });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const banner = await screen.findByTestId('validation-banner');
    expect(banner.textContent).toContain('Please provide a name.');
    const domain = await field('E-mail domain');
    fireEvent.change(domain, { target: { value: 'not a domain' } });
    fireEvent.blur(domain);
    await screen.findAllByText('Please provide a valid domain name.');
    fireEvent.change(await field('Name'), { target: { value: 'Initech' } });
    fireEvent.change(domain, { target: { value: 'initech.test' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Accept new users' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.went).toEqual(['/organizations/12']));
    expect(network.calls.at(-1)).toEqual({
      method: 'POST',
      path: '/v2/organizations',
      body: { name: 'Initech', acceptUsers: true, emailDomain: 'initech.test' },
    });
  });

  it('skips the domain rule for an empty domain, which means none', async () => {
    signIn(user(1, 'root', null));
    network.on('PUT /v2/organizations/3', { body: { organizations: { 3: ACME } } });
    open({ mode: 'edit', ids: [3] });
    const domain = await field('E-mail domain');
    await waitFor(() => expect((domain as HTMLInputElement).value).toBe('acme.test'));
    fireEvent.change(domain, { target: { value: '' } });
    fireEvent.blur(domain);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.went).toEqual(['/organizations/3']));
    expect(network.calls.at(-1)?.body).toEqual({ name: 'Acme', acceptUsers: false, emailDomain: null });
  });

  it('shows an admin the domain read-only and never sends it', async () => {
    signIn(user(2, 'admin', 3));
    network.on('PUT /v2/organizations/3', { body: { organizations: { 3: ACME } } });
    open({ mode: 'edit', ids: [3] });
    const domain = (await field('E-mail domain')) as HTMLInputElement;
    await waitFor(() => expect(domain.value).toBe('acme.test'));
    expect(domain.readOnly).toBe(true);
    fireEvent.change(await field('Name'), { target: { value: 'Acme Corp' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.went).toEqual(['/organizations/3']));
    expect(network.calls.at(-1)).toEqual({
      method: 'PUT',
      path: '/v2/organizations/3',
      body: { name: 'Acme Corp', acceptUsers: false },
    });
  });

  it.each<[string, User, ResourceParams]>([
    ['an admin of another organization editing', user(2, 'admin', 4), { mode: 'edit', ids: [3] }],
    ['a user editing their own', user(2, 'user', 3), { mode: 'edit', ids: [3] }],
    ['an admin creating', user(2, 'admin', 3), { mode: 'create', ids: [] }],
    ['an admin deleting', user(2, 'admin', 3), { mode: 'delete', ids: [3] }],
  ])('sends %s to the 403 page', async (_, self, resource) => {
    signIn(self);
    open(resource);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/error/403'));
  });
});

describe('adding a user', () => {
  it('offers an admin only the user role, posts the new user and says a link was sent', async () => {
    signIn(user(2, 'admin', 3));
    network.on('POST /v2/users', ({ body }) => ({ body: { users: { 40: { id: 40, ...(body as object) } } } }));
    open({ mode: 'view', ids: [3] });
    fireEvent.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Role' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Organization User']);
    fireEvent.click(options[0]!);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'E-mail' }), { target: { value: 'new@acme.test' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Newt' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add User' }));
    await waitFor(() => expect(useStore.getState().dialog).toBeNull());
    expect(network.calls.at(-1)).toEqual({
      method: 'POST',
      path: '/v2/users',
      body: { email: 'new@acme.test', name: 'Newt', role: 'user', organizationId: 3 },
    });
    expect(useStore.getState().alerts.map((a) => a.title)).toContain('User Added');
  });

  it('keeps the dialog open with the server’s reason when it refuses', async () => {
    signIn(user(1, 'super', null));
    network.on('POST /v2/users', { status: 409, body: { error: 'There is already a user with that e-mail.' } });
    open({ mode: 'view', ids: [3] });
    fireEvent.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'E-mail' }), { target: { value: 'dup@acme.test' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Dup' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect((await within(dialog).findByTestId('add-user-refusal')).textContent).toBe(
      'There is already a user with that e-mail.',
    );
    expect(useStore.getState().dialog).not.toBeNull();
  });
});
