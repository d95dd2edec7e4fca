/** The usage alerts section of an organization's page (issue 16): shown to its administrators, saved, refused when bad. */
import { USAGE_ALERT_DEFAULTS, USAGE_ALERT_MESSAGES, type UsageAlertFiring } from '@tessera/common/usage-alerts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import OrganizationPage from './organization-page';

setupPageTests();

const ACME = { id: 3, name: 'Acme', emailDomain: 'acme.test', acceptUsers: true, createdAt: '', updatedAt: '' };
const FIRING: UsageAlertFiring = {
  id: 11,
  organizationId: 3,
  kind: 'threshold',
  share: 80,
  period: '2026-11',
  firedAt: '2026-11-20T10:00:00.000Z',
  spent: 800,
  monthlyLimit: 1000,
  requests: null,
  average: null,
  multiple: null,
};
const PATH = '/v2/organizations/3/usage-alerts';

beforeEach(() => {
  network.on('GET /v2/keys', { body: { keys: {} } });
  network.on('GET /v2/organizations/3', { body: { organizations: { 3: ACME }, users: {} } });
  network.on(`GET ${PATH}`, {
    body: { usageAlerts: { organizationId: 3, ...USAGE_ALERT_DEFAULTS, updatedAt: null, firings: [FIRING] } },
  });
});

function open() {
  return renderPage(<OrganizationPage {...({ resource: { mode: 'view', ids: [3] } } as PageProps)} />);
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('usage alerts section', () => {
  it('shows an administrator the settings and recent alerts, and saves a change', async () => {
    signIn(user(1, 'admin', 3));
    open();
    const section = await screen.findByRole('region', { name: 'Usage Alerts' });
    await waitFor(() => expect(field('Shares of the monthly limit (%)').value).toBe('80, 100'));
    expect(field('Spike: times the daily average').value).toBe('3');
    expect(field('Alert at shares of the monthly limit').checked).toBe(true);
    const row = within(section).getByTestId('usage-alert-row');
    expect(row.textContent).toContain('80% of the monthly limit');
    expect(row.textContent).toContain('Acme has spent $800.00 of its $1,000.00 monthly limit in November 2026.');

    network.on(`PUT ${PATH}`, (call) => ({
      body: {
        usageAlerts: { organizationId: 3, ...(call.body as object), updatedAt: '2026-11-25T00:00:00Z', firings: [] },
      },
    }));
    fireEvent.change(field('Shares of the monthly limit (%)'), { target: { value: '90, 50' } });
    fireEvent.click(field('Alert on a spike in daily requests'));
    fireEvent.change(field('Spike: times the daily average'), { target: { value: '2.5' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save Alerts' }));
    await screen.findByText('Usage Alerts Saved');
    expect(network.calls.at(-1)).toEqual({
      method: 'PUT',
      path: PATH,
      body: { thresholdsOn: true, thresholds: [50, 90], spikeOn: false, spikeMultiple: 2.5 },
    });
    expect(field('Shares of the monthly limit (%)').value).toBe('50, 90');
  });

  it('refuses shares and multiples out of range with the shared messages, sending nothing', async () => {
    signIn(user(1, 'super', null));
    open();
    await waitFor(() => expect(field('Shares of the monthly limit (%)').value).toBe('80, 100'));
    fireEvent.change(field('Shares of the monthly limit (%)'), { target: { value: '0, 200' } });
    fireEvent.change(field('Spike: times the daily average'), { target: { value: '1.2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Alerts' }));
    await screen.findByText('Validation failed.');
    expect(screen.getAllByText(USAGE_ALERT_MESSAGES.thresholds).length).toBeGreaterThan(0);
    expect(screen.getAllByText(USAGE_ALERT_MESSAGES.multiple).length).toBeGreaterThan(0);
    expect(network.calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('reads the list again when a firing for the organization is pushed', async () => {
    signIn(user(1, 'admin', 3));
    open();
    await screen.findByRole('region', { name: 'Usage Alerts' });
    await waitFor(() => expect(network.calls.filter((c) => c.path === PATH)).toHaveLength(1));
    act(() => useStore.getState().merge({ usageAlertFired: { ...FIRING, id: 12, share: 100 } }));
    await waitFor(() => expect(network.calls.filter((c) => c.path === PATH)).toHaveLength(2));
  });

  it('is not shown to a plain member', async () => {
    signIn(user(8, 'user', 3));
    open();
    await screen.findByTestId('page-title');
    expect(screen.queryByRole('region', { name: 'Usage Alerts' })).toBeNull();
    expect(network.calls.some((c) => c.path === PATH)).toBe(false);
  });
});
