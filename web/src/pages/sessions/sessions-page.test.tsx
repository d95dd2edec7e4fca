import { formatDate } from '@tessera/common/dates';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import SessionsPage from './sessions-page';

setupPageTests();

const session = (id: number, lastSeenAt: string, extra: Record<string, unknown> = {}) => ({
  id,
  userId: id * 10,
  userEmail: `u${id}@acme.test`,
  userName: `Person ${id}`,
  userRole: 'user',
  organizationId: 3,
  organizationName: 'Acme',
  impersonatorId: null,
  ip: `10.0.0.${id}`,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  remember: false,
  createdAt: '2026-01-01T00:00:00Z',
  lastSeenAt,
  expiresAt: '2026-12-01T00:00:00Z',
  current: false,
  ...extra,
});

const SESSIONS = {
  1: session(1, '2026-03-01T10:00:00Z', { current: true }),
  2: session(2, '2026-03-02T15:30:00Z'),
};
const rows = () => screen.queryAllByTestId('session-row');

describe('sessions page', () => {
  it('lists every live session, latest first, with user, organization, IP, agent, last seen and own mark', async () => {
    signIn(user(10, 'super'));
    network.on('GET /v2/sessions', { body: { sessions: SESSIONS } });
    renderPage(<SessionsPage />);
    await waitFor(() => expect(rows()).toHaveLength(2));
    const [first, second] = rows();
    expect(within(first!).getByRole('link', { name: 'Person 2' }).getAttribute('href')).toBe('/users/20');
    expect(within(first!).getByText('10.0.0.2')).toBeTruthy();
    expect(within(first!).getByText(formatDate('2026-03-02T15:30:00Z'))).toBeTruthy();
    expect(within(first!).queryByText('This session')).toBeNull();
    expect(within(second!).getByText('This session')).toBeTruthy();
    expect(within(second!).getByRole('link', { name: 'Acme' }).getAttribute('href')).toBe('/organizations/3');
    expect(within(second!).getByText('Mozilla/5.0 (X11; Linux x86_64)')).toBeTruthy();
  });

  it('revokes a session; the reply carrying deletedAt removes its row', async () => {
    signIn(user(10, 'super'));
    network.on('GET /v2/sessions', { body: { sessions: SESSIONS } });
    network.on('DELETE /v2/sessions/2', {
      body: { sessions: { 2: { ...SESSIONS[2], deletedAt: '2026-03-03T00:00:00Z' } } },
    });
    renderPage(<SessionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke the session of Person 2' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]!).getByText('This session')).toBeTruthy();
    expect(network.calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/v2/sessions/2' });
  });

  it('offers Revoke only for sessions the caller may end: their own and those of lower ranks', async () => {
    signIn(user(10, 'super'));
    const peer = session(3, '2026-03-03T10:00:00Z', { userRole: 'super' });
    network.on('GET /v2/sessions', { body: { sessions: { ...SESSIONS, 3: peer } } });
    renderPage(<SessionsPage />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Revoke the session of Person 3' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Revoke the session of Person 2' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Revoke the session of Person 1' })).toBeTruthy();
  });

  it('asks before revoking the caller’s own session', async () => {
    signIn(user(10, 'super'));
    network.on('GET /v2/sessions', { body: { sessions: SESSIONS } });
    renderPage(<SessionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke the session of Person 1' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(network.calls.map((c) => c.method)).toEqual(['GET']);
    expect(rows()).toHaveLength(2);
  });
});
