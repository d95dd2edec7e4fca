import { USER_COOKIE } from '@tessera/common/entities';
import type { Role } from '@tessera/common/roles';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import UserPage from './user-page';

setupPageTests();
// The Keys section lists the user's keys (issue 15).
beforeEach(() => network.on('GET /v2/keys', { body: { keys: {} } }));

const entry = (id: number, role: Role, extra: Record<string, unknown> = {}) => ({
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
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...extra,
});

function view(id: number, mode: 'view' | 'delete' = 'view') {
  const props = { resource: { mode, ids: [id] } } as PageProps;
  return renderPage(<UserPage {...props} />);
}

const actions = () =>
  ['Edit', 'Impersonate', 'Delete'].filter((name) => screen.queryByRole(name === 'Edit' ? 'link' : 'button', { name }));

describe('user page', () => {
  it('shows the user’s details with role label and organization link', async () => {
    signIn(user(1, 'admin'));
    network.on('GET /v2/users/9', { body: { users: { 9: entry(9, 'user', { verifiedAt: null }) } } });
    view(9);
    expect((await screen.findByTestId('page-title')).textContent).toBe('Person 9');
    expect(screen.getByText('Organization User')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Acme' }).getAttribute('href')).toBe('/organizations/3');
  });

  it.each([
    ['user', 'user', []],
    ['admin', 'user', ['Edit', 'Delete']],
    ['admin', 'admin', []],
    ['super', 'admin', ['Edit', 'Impersonate', 'Delete']],
    ['super', 'super', []],
    ['root', 'super', ['Edit', 'Impersonate', 'Delete']],
  ] as [Role, Role, string[]][])('offers a %s viewing a %s: %j', async (viewer, target, expected) => {
    signIn(user(1, viewer));
    network.on('GET /v2/users/9', { body: { users: { 9: entry(9, target) } } });
    view(9);
    await screen.findByTestId('page-title');
    expect(actions()).toEqual(expected);
  });

  it('lets anyone edit themselves but not delete or impersonate themselves', async () => {
    signIn(user(9, 'root'));
    network.on('GET /v2/users/9', { body: { users: { 9: entry(9, 'root') } } });
    view(9);
    await screen.findByTestId('page-title');
    expect(actions()).toEqual(['Edit']);
  });

  it('does not offer impersonation while already impersonating', async () => {
    signIn({ ...user(1, 'root'), impersonator: 2 });
    network.on('GET /v2/users/9', { body: { users: { 9: entry(9, 'user') } } });
    view(9);
    await screen.findByTestId('page-title');
    expect(actions()).toEqual(['Edit', 'Delete']);
  });

  it('at /users/delete/{id} asks first, then deletes and goes to the organization', async () => {
    signIn(user(1, 'admin'));
    network.on('GET /v2/users/9', { body: { users: { 9: entry(9, 'user') } } });
    network.on('DELETE /v2/users/9', { body: { users: { 9: { id: 9, deletedAt: '2026-02-01T00:00:00Z' } } } });
    view(9, 'delete');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('confirm-text').textContent).toContain('Person 9');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(network.went).toEqual(['/organizations/3']));
    expect(network.calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/v2/users/9' });
    expect(useStore.getState().areas.users).toEqual({});
  });

  it('at /users/delete/{id} sends someone who may not delete to the 403 page', async () => {
    signIn(user(1, 'user'));
    network.on('GET /v2/users/9', { body: { users: { 9: entry(9, 'user') } } });
    view(9, 'delete');
    await waitFor(() => expect(network.went).toEqual(['/error/403']));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  describe('impersonation', () => {
    afterEach(() => {
      // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server's part of writing the cookie
      document.cookie = `${USER_COOKIE}=; Path=/; Max-Age=0`;
    });

    it('switches to the target from the refreshed cookie and goes where the server says', async () => {
      signIn(user(1, 'super'));
      const target = { ...user(9, 'admin'), expires: Date.now() + 60_000, impersonator: 1 };
      network.on('GET /v2/users/9', { body: { users: { 9: entry(9, 'admin') } } });
      network.on('PUT /auth/impersonate/9', () => {
        // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server's part of writing the cookie
        document.cookie = `${USER_COOKIE}=${encodeURIComponent(JSON.stringify(target))}; Path=/`;
        return { body: { self: target, location: '/' } };
      });
      view(9);
      fireEvent.click(await screen.findByRole('button', { name: 'Impersonate' }));
      await waitFor(() => expect(network.went).toEqual(['/']));
      expect(useStore.getState().self).toMatchObject({ id: 9, impersonator: 1 });
    });
  });
});
