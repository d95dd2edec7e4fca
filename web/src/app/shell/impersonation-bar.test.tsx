/** The impersonation bar (issue 32 item 2) against a faked network: who acts as whom, and Stop. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../../pages/test-support';
import ImpersonationBar from './impersonation-bar';

setupPageTests();

const ivy = { ...user(7, 'user'), name: 'Ivy Customer', organizationName: 'Acme', impersonator: 1 };
const staff = { id: 1, name: 'Root', email: 'root@tessera.test', role: 'root' };

describe('impersonation bar', () => {
  it('is not there unless impersonating, and then asks nothing of the server', () => {
    signIn(user(7, 'user'));
    renderPage(<ImpersonationBar />);
    expect(screen.queryByRole('region', { name: 'Impersonation' })).toBeNull();
    expect(network.calls).toEqual([]);
  });

  it('names the staff user and the customer, and Stop returns to the staff user', async () => {
    signIn(ivy);
    network.on('GET /auth/impersonation', { body: { impersonation: { impersonator: staff } } });
    network.on('PUT /auth/stopImpersonating', { body: { self: { ...user(1, 'root') }, location: '/' } });
    renderPage(<ImpersonationBar />);
    const bar = screen.getByRole('region', { name: 'Impersonation' });
    expect(bar.textContent).toContain('Impersonating Ivy Customer (Organization User, Acme).');
    await waitFor(() =>
      expect(bar.textContent).toContain(
        'Root (System Maintainer) is impersonating Ivy Customer (Organization User, Acme).',
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Stop Impersonating' }));
    await waitFor(() => expect(network.went).toContain('/'));
    expect(network.calls.map((c) => `${c.method} ${c.path}`)).toContain('PUT /auth/stopImpersonating');
  });

  it('still says whom it acts as when the staff user cannot be named, with no alert', async () => {
    signIn(ivy);
    network.on('GET /auth/impersonation', { status: 409, body: { error: 'You are not impersonating anyone.' } });
    renderPage(<ImpersonationBar />);
    await waitFor(() => expect(network.calls).toHaveLength(1));
    expect(screen.getByRole('region', { name: 'Impersonation' }).textContent).toContain('Impersonating Ivy Customer');
    expect(useStore.getState().alerts).toEqual([]);
  });
});
