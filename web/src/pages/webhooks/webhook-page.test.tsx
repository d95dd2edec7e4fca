import type { ResourceParams } from '@tessera/common/routes';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import { POLL_MS } from './use-delivery-log';
import WebhookPage from './webhook-page';

setupPageTests();

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6FBd6NXLqY0=';

const endpoint = (extra: Record<string, unknown> = {}) => ({
  id: 5,
  organizationId: 3,
  url: 'https://hooks.acme.test/tessera',
  description: 'Orders',
  events: ['identity.changed', 'job.completed'],
  enabled: true,
  disabledAt: null,
  disabledReason: null,
  consecutiveFailures: 0,
  previousSecretValidUntil: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...extra,
});

const delivery = (status: string) => ({
  id: 9,
  endpointId: 5,
  messageId: 'msg_abc',
  eventType: 'webhook.test',
  status,
  attemptCount: 1,
  lastStatusCode: status === 'pending' ? 500 : 200,
  lastLatencyMs: 12,
  lastAttemptAt: '2026-01-01T00:00:01Z',
  nextAttemptAt: status === 'pending' ? '2026-01-01T00:00:06Z' : null,
  replayOf: null,
  createdAt: '2026-01-01T00:00:00Z',
  attempts: [],
});

const page = (resource: ResourceParams) => renderPage(<WebhookPage {...({ resource } as unknown as PageProps)} />);

/** Lets the fake network's replies and React's updates through (setImmediate is not faked). */
const flush = async () => {
  for (let i = 0; i < 5; i++) await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
};

const deliveryLoads = () => network.calls.filter((c) => c.path === '/v2/webhooks/5/deliveries').length;

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

afterEach(() => {
  vi.useRealTimers();
  setVisibility('visible');
});

describe('a new endpoint', () => {
  it('sends the form, shows the secret once, and keeps it out of the store', async () => {
    signIn(user(1, 'admin'));
    network.on('POST /v2/webhooks', { status: 201, body: { webhooks: { 5: endpoint({ secret: SECRET }) } } });
    page({ mode: 'create', ids: [] });
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: ' https://hooks.acme.test/tessera ' } });
    fireEvent.click(screen.getByLabelText(/^job\.completed/));
    fireEvent.click(screen.getByRole('button', { name: 'Create Endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Signing secret of the new endpoint' });
    expect(within(dialog).getByTestId('webhook-secret').textContent).toBe(SECRET);
    expect(within(dialog).getByText(/it will not be shown again/)).toBeTruthy();
    expect(network.calls.at(-1)?.body).toEqual({
      url: 'https://hooks.acme.test/tessera',
      description: '',
      events: ['identity.changed'],
      enabled: true,
    });
    const stored = (useStore.getState().areas.webhooks as Record<string, Record<string, unknown>>)['5'];
    expect(stored?.url).toBe('https://hooks.acme.test/tessera');
    expect(JSON.stringify(useStore.getState())).not.toContain(SECRET);
    fireEvent.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    expect(network.went.at(-1)).toBe('/webhooks/5');
  });
});

describe('the delivery log', () => {
  it('looks again while a delivery is pending, not while the tab is hidden, and stops once none is', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    signIn(user(1, 'admin'));
    let status = 'pending';
    network.on('GET /v2/webhooks/5', { body: { webhooks: { 5: endpoint() } } });
    network.on('GET /v2/webhooks/5/deliveries', () => ({
      body: { webhookDeliveries: { endpointId: 5, deliveries: [delivery(status)], next: null } },
    }));
    page({ mode: 'view', ids: [5] });
    await flush();
    expect(screen.getByTestId('delivery-status').textContent).toBe('Pending');
    expect(deliveryLoads()).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    await flush();
    expect(deliveryLoads()).toBe(2);

    setVisibility('hidden');
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 3));
    await flush();
    expect(deliveryLoads()).toBe(2);

    status = 'succeeded';
    setVisibility('visible'); // looks at once on coming back
    await flush();
    expect(deliveryLoads()).toBe(3);
    expect(screen.getByTestId('delivery-status').textContent).toBe('Succeeded');

    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 3));
    await flush();
    expect(deliveryLoads()).toBe(3);
  });

  it('does not look again while its endpoint is disabled, and says so', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    signIn(user(1, 'admin'));
    const off = {
      enabled: false,
      disabledReason: 'failures',
      disabledAt: '2026-01-02T00:00:00Z',
      consecutiveFailures: 3,
    };
    network.on('GET /v2/webhooks/5', { body: { webhooks: { 5: endpoint(off) } } });
    network.on('GET /v2/webhooks/5/deliveries', {
      body: { webhookDeliveries: { endpointId: 5, deliveries: [delivery('pending')], next: null } },
    });
    page({ mode: 'view', ids: [5] });
    await flush();
    expect(screen.getAllByText(/^Disabled after 3 failures on /).length).toBeGreaterThan(0);
    expect(screen.getByText('When enabled')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send Test Event' }).hasAttribute('disabled')).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 3));
    await flush();
    expect(deliveryLoads()).toBe(1);
  });

  it('looks once more when the run of failures disables the endpoint, then no more', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    signIn(user(1, 'admin'));
    let status = 'pending';
    network.on('GET /v2/webhooks/5', { body: { webhooks: { 5: endpoint() } } });
    network.on('GET /v2/webhooks/5/deliveries', () => ({
      body: { webhookDeliveries: { endpointId: 5, deliveries: [delivery(status)], next: null } },
    }));
    page({ mode: 'view', ids: [5] });
    await flush();
    expect(deliveryLoads()).toBe(1);
    // The last attempt failed and disabled the endpoint; the socket's push tells the page before its next look.
    status = 'failed';
    act(() => {
      useStore.getState().merge({
        webhooks: { 5: { enabled: false, disabledReason: 'failures', disabledAt: '2026-01-02T00:00:00Z' } },
      });
    });
    await flush();
    expect(deliveryLoads()).toBe(2);
    expect(screen.getByTestId('delivery-status').textContent).toBe('Failed');
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 3));
    await flush();
    expect(deliveryLoads()).toBe(2);
  });
});
