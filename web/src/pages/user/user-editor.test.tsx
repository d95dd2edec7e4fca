import type { Role } from '@tessera/common/roles';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import UserPage from './user-page';

setupPageTests();

const entry = (id: number, role: Role) => ({
  id,
  email: `u${id}@acme.test`,
  name: `Person ${id}`,
  title: 'Engineer',
  image: '',
  role,
  organizationId: 3,
  organizationName: 'Acme',
  isActive: true,
  allowedRecordTypes: [],
  verifiedAt: null,
  createdAt: '',
  updatedAt: '',
});

function edit(target: ReturnType<typeof entry>) {
  network.on(`GET /v2/users/${target.id}`, { body: { users: { [target.id]: target } } });
  network.on(`PUT /v2/users/${target.id}`, ({ body }) => ({
    body: { users: { [target.id]: { ...target, ...(body as object) } } },
  }));
  renderPage(<UserPage {...({ resource: { mode: 'edit', ids: [target.id] } } as PageProps)} />);
}

async function roleChoices(): Promise<string[]> {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Role' }));
  const options = within(await screen.findByRole('listbox')).getAllByRole('option');
  return options.map((o) => o.textContent ?? '');
}

describe('user edit form', () => {
  it.each([
    ['admin', 'user', ['Organization User']],
    ['super', 'admin', ['Organization User', 'Organization Administrator']],
    ['root', 'user', ['Organization User', 'Organization Administrator', 'System Administrator']],
  ] as [Role, Role, string[]][])(
    'a %s editing a %s may choose only ranks below their own: %j',
    async (editor, target, labels) => {
      signIn(user(1, editor));
      edit(entry(9, target));
      expect(await screen.findByRole('switch', { name: 'Active' })).toBeTruthy();
      expect(await roleChoices()).toEqual(labels);
    },
  );

  it('shows neither role nor active to someone editing themselves', async () => {
    signIn(user(9, 'root'));
    edit(entry(9, 'root'));
    await screen.findByRole('textbox', { name: 'Name' });
    expect(screen.queryByRole('combobox', { name: 'Role' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Active' })).toBeNull();
  });

  it('sends someone who may not edit the user to the 403 page', async () => {
    signIn(user(1, 'admin'));
    edit(entry(9, 'admin'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/error/403'));
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    expect(network.calls.map((c) => c.method)).toEqual(['GET']);
  });

  it('saves the changed role and active state, then shows the user', async () => {
    signIn(user(1, 'super'));
    edit(entry(9, 'user'));
    fireEvent.click(await screen.findByRole('switch', { name: 'Active' }));
    expect(await roleChoices()).toContain('Organization Administrator');
    fireEvent.click(screen.getByRole('option', { name: 'Organization Administrator' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.went).toEqual(['/users/9']));
    expect(network.calls.at(-1)).toEqual({
      method: 'PUT',
      path: '/v2/users/9',
      body: { name: 'Person 9', title: 'Engineer', isActive: false, role: 'admin' },
    });
  });

  it('validates on blur and shows the banner on a failed save (spec §5)', async () => {
    signIn(user(9, 'user'));
    edit(entry(9, 'user'));
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Person 9'));
    fireEvent.change(name, { target: { value: '  ' } });
    expect(screen.queryByText('Please provide a name.')).toBeNull(); // not yet left
    fireEvent.blur(name);
    await screen.findByText('Please provide a name.');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const banner = await screen.findByTestId('validation-banner');
    expect(banner.textContent).toContain('Validation failed.');
    expect(banner.textContent).toContain('Please fix the error(s) below, and try again.');
    expect(network.calls.map((c) => c.method)).toEqual(['GET']);
    fireEvent.change(name, { target: { value: 'Ada' } }); // re-checked on input once left
    await waitFor(() => expect(screen.queryByText('Please provide a name.')).toBeNull());
  });
});
