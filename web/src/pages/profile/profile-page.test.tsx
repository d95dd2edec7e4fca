/** The profile page (spec §2, decision 0007) against a faked network: details, picture, password link, sessions. */
import type { SessionEntry } from '@tessera/common/resources';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errorOf, field, type } from '../../forms/test-fields';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import ProfilePage from './profile-page';
import { describeAgent } from './user-agent';

setupPageTests();

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0';

function session(id: number, patch: Partial<SessionEntry> = {}): SessionEntry {
  return {
    id,
    userId: 7,
    userEmail: 'u7@acme.test',
    userName: 'User 7',
    userRole: 'user',
    organizationId: 3,
    organizationName: 'Acme',
    impersonatorId: null,
    ip: `10.0.0.${id}`,
    userAgent: CHROME_MAC,
    remember: false,
    createdAt: '2024-03-01T10:00:00.000Z',
    lastSeenAt: new Date(2024, 2, 4, 15 - id, 5).toISOString(),
    expiresAt: '2024-03-05T10:00:00.000Z',
    current: false,
    ...patch,
  };
}

const keyed = (...items: SessionEntry[]) => Object.fromEntries(items.map((s) => [s.id, s]));
let urls: string[];

beforeEach(() => {
  signIn({ ...user(7, 'user'), title: 'Analyst', organizationName: 'Acme' });
  network.on('GET /auth/two-factor', {
    body: { twoFactor: { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false } },
  });
  network.on('GET /v2/sessions', {
    body: {
      sessions: keyed(
        session(1),
        session(2, { current: true, userAgent: FIREFOX_WINDOWS }),
        session(3, { ip: '10.9.9.9' }),
      ),
    },
  });
  const fake = globalThis.fetch;
  urls = [];
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    urls.push(url);
    return fake(url, init);
  });
});

const rows = () => screen.getAllByTestId('my-session');
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('profile details', () => {
  it('shows the e-mail read-only and saves Name and Title with PUT /v2/users/{id}', async () => {
    network.on('PUT /v2/users/7', ({ body }) => ({
      body: {
        users: { 7: { id: 7, ...(body as object) } },
        self: { ...useStore.getState().self, ...(body as object) },
      },
    }));
    renderPage(<ProfilePage />, '/profile');
    expect(field('Email').value).toBe('u7@acme.test');
    expect(field('Email').readOnly).toBe(true);
    expect(field('Name').value).toBe('User 7');
    expect(field('Title').value).toBe('Analyst');
    expect(button('Save').disabled).toBe(true);
    type('Name', ' Ada Lovelace ');
    type('Title', '');
    fireEvent.click(button('Save'));
    await waitFor(() => expect(useStore.getState().alerts.map((a) => a.title)).toContain('Profile Saved'));
    expect(network.calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/v2/users/7',
      body: { name: 'Ada Lovelace', title: '' },
    });
    expect(useStore.getState().self.name).toBe('Ada Lovelace');
    expect(button('Save').disabled).toBe(true);
  });

  it('requires a name; the title is optional', () => {
    renderPage(<ProfilePage />, '/profile');
    type('Name', ' ');
    type('Title', '');
    fireEvent.click(button('Save'));
    expect(errorOf('Name')).toBe('Please provide a name.');
    expect(errorOf('Title')).toBeUndefined();
    expect(network.calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('links to Change Password', () => {
    renderPage(<ProfilePage />, '/profile');
    expect(screen.getByRole('link', { name: 'Change Password' }).getAttribute('href')).toBe('/password/change');
  });
});

describe('picture', () => {
  const choose = (file: File) => fireEvent.change(screen.getByTestId('avatar-file'), { target: { files: [file] } });

  it('refuses a file of another type, or over the size limit, naming the problem, without uploading', () => {
    renderPage(<ProfilePage />, '/profile');
    expect(screen.getByTestId('avatar-file').getAttribute('accept')).toBe('image/png,image/jpeg,image/gif,image/webp');
    choose(new File(['<svg/>'], 'me.svg', { type: 'image/svg+xml' }));
    expect(screen.getByRole('alert').textContent).toBe('The picture must be a PNG, JPEG, GIF or WebP image.');
    choose(new File([new Uint8Array(1_000_001)], 'me.png', { type: 'image/png' }));
    expect(screen.getByRole('alert').textContent).toBe('The picture is larger than 1 MB.');
    expect(network.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('uploads an accepted picture to /v2/users/{id}/image and shows the new one', async () => {
    const image = '/v2/images/abc.png';
    network.on('POST /v2/users/7/image', () => ({
      body: { users: { 7: { id: 7, image } }, self: { ...useStore.getState().self, image } },
    }));
    renderPage(<ProfilePage />, '/profile');
    choose(new File([new Uint8Array(1_000_000)], 'Me.PNG', { type: 'image/png' }));
    await waitFor(() => expect(document.querySelector(`img[src="${image}"]`)).not.toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    const upload = network.calls.find((c) => c.method === 'POST');
    expect(upload?.path).toBe('/v2/users/7/image');
  });
});

describe('your sessions', () => {
  it('lists your own sessions from GET /v2/sessions?mine=true, this one first and marked', async () => {
    useStore.getState().merge({ sessions: keyed(session(9, { userId: 8, current: false })) });
    renderPage(<ProfilePage />, '/profile');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(urls).toContain('/v2/sessions?mine=true');
    const [first, second, third] = rows();
    expect(first?.textContent).toContain('Firefox on Windows');
    expect(first?.textContent).toContain('This session');
    expect(first?.textContent).toContain('10.0.0.2 · last seen 3/4/24 1:05pm');
    expect(second?.textContent).toContain('Chrome on macOS');
    expect(second?.textContent).not.toContain('This session');
    expect(third?.textContent).toContain('10.9.9.9');
  });

  it('signs out another session with DELETE /v2/sessions/{id}, which leaves the list', async () => {
    network.on('DELETE /v2/sessions/3', { body: { sessions: { 3: { id: 3, deletedAt: '2024-03-04T12:00:00Z' } } } });
    renderPage(<ProfilePage />, '/profile');
    await waitFor(() => expect(rows()).toHaveLength(3));
    const row = rows().find((r) => r.textContent?.includes('10.9.9.9'))!;
    fireEvent.click(within(row).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(network.calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/v2/sessions/3' });
  });

  it('signs this browser out the usual way', async () => {
    network.on('PUT /auth/logout', { body: {} });
    renderPage(<ProfilePage />, '/profile');
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(within(rows()[0]!).getByRole('button', { name: 'Sign out' }));
    expect(network.went).toEqual(['/login']);
    expect(useStore.getState().self.id).toBe(0);
    await waitFor(() => expect(network.calls.at(-1)).toMatchObject({ method: 'PUT', path: '/auth/logout' }));
  });

  it('signs out everywhere else with DELETE /v2/sessions, then has nothing else to sign out', async () => {
    const ended = { id: 0, deletedAt: '2024-03-04T12:00:00Z' };
    network.on('DELETE /v2/sessions', {
      body: { sessions: { 1: { ...ended, id: 1 }, 3: { ...ended, id: 3 } } },
    });
    renderPage(<ProfilePage />, '/profile');
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(button('Sign out everywhere else'));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]?.textContent).toContain('This session');
    await waitFor(() => expect(button('Sign out everywhere else').disabled).toBe(true));
  });
});

describe('browser names', () => {
  it('reads the browser and system from a User-Agent, or shows it as it is', () => {
    expect(describeAgent(CHROME_MAC)).toBe('Chrome on macOS');
    expect(describeAgent(FIREFOX_WINDOWS)).toBe('Firefox on Windows');
    expect(
      describeAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(describeAgent('curl/8.0')).toBe('curl/8.0');
    expect(describeAgent('')).toBe('Unknown browser');
  });
});
