/**
 * The Terms page (spec §2, issue 32 item 3) against a faked network: a signer accepts or declines (declining signs
 * out without accepting), one who has accepted reads when and gets a way on, and an impersonating staff user is
 * told that only the customer can accept.
 */
import { formatDate } from '@tessera/common/dates';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import TermsPage, { DECLINED_ALERT } from './terms-page';

setupPageTests();

const ACCEPTED_AT = '2026-03-04T15:30:00.000Z';

function terms(ndaAcceptedAt: string | null) {
  network.on('GET /v2/terms', { body: { nda: '<h2>Tessera Terms of Use</h2>', ndaId: 4, ndaAcceptedAt } });
}

describe('Terms page', () => {
  it('offers a signer the agreement, accepting and declining; declining signs out with a notice', async () => {
    signIn(user(7, 'signer'));
    network.on('GET /v2/self', { body: { self: user(7, 'signer') } });
    network.on('PUT /auth/logout', { body: { self: { id: 0 } } });
    terms(null);
    renderPage(<TermsPage />, '/terms');
    await screen.findByText('Tessera Terms of Use');
    expect(screen.getByRole('button', { name: 'I accept this Agreement' })).toBeTruthy();
    expect(screen.getByText(/If you decline, you are signed out\./)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(network.calls.some((c) => c.method === 'PUT' && c.path === '/auth/logout')).toBe(true));
    expect(network.went).toContain('/login');
    expect(network.calls.some((c) => c.path === '/v2/terms/accept')).toBe(false);
    expect(useStore.getState().self.id).toBe(0);
    expect(useStore.getState().carriedAlerts).toContainEqual(DECLINED_ALERT);
  });

  it('tells a user who has accepted when, and leads on to the console', async () => {
    signIn(user(7, 'user'));
    network.on('GET /v2/self', { body: { self: user(7, 'user') } });
    terms(ACCEPTED_AT);
    renderPage(<TermsPage />, '/terms');
    await screen.findByText(`You accepted this agreement on ${formatDate(ACCEPTED_AT)}.`);
    expect(screen.queryByText(/once you have accepted it/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'I accept this Agreement' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Decline' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Continue to the console' }).getAttribute('href')).toBe('/');
  });

  it('tells a staff user acting as a customer who has not accepted that only the customer can', async () => {
    const customer = { ...user(7, 'user'), name: 'Ivy Customer', impersonator: 1 };
    signIn(customer);
    network.on('GET /v2/self', { body: { self: customer } });
    terms(null);
    renderPage(<TermsPage />, '/terms');
    await screen.findByText('Ivy Customer has not accepted this agreement; only they can.');
    expect(screen.queryByRole('button', { name: 'I accept this Agreement' })).toBeNull();
  });
});
