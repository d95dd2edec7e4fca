/**
 * Issue 31 on the key pages: the edit form sends If-Match with the version it loaded and shows a 412 in place
 * (nothing overwritten); "Last used" is shown to the minute on the key page and in the key table.
 */
import { STALE_MESSAGES, versionTag } from '@tessera/common/etag';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import KeyPage from './key-page';
import { KeysSection } from './keys-table';

setupPageTests();

const ID = 'AbCdEfGh12345678';
/** 10:59 local time: the hour alone would read 10:00. */
const LAST_USED = new Date(2026, 5, 3, 10, 59, 30).toISOString();

const entry = (extra: Record<string, unknown> = {}) => ({
  id: ID,
  name: 'Loaded',
  userId: 1,
  organizationId: 3,
  lastFour: 'et99',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00.123Z',
  expiresAt: null,
  ipAllowlist: [],
  rateLimit: null,
  allowedRecordTypes: [],
  legacy: false,
  previousValidUntil: null,
  lastUsedAt: LAST_USED,
  callsThisMonth: 3,
  ...extra,
});

const page = (params: Record<string, string>) => renderPage(<KeyPage {...({ params } as unknown as PageProps)} />);

describe('editing a key', () => {
  it('sends If-Match with the version it loaded', async () => {
    signIn(user(1, 'user'));
    network.on(`GET /v2/keys/${ID}`, { body: { keys: { [ID]: entry() } } });
    network.on(`PUT /v2/keys/${ID}`, {
      body: { keys: { [ID]: entry({ name: 'Renamed', updatedAt: '2026-01-02T00:00:00Z' }) } },
    });
    page({ action: 'edit', id: ID });
    const name = await screen.findByLabelText('Name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Loaded'));
    // A push of a newer version while the form is open does not change what the form loaded.
    useStore.getState().merge({ keys: { [ID]: entry({ updatedAt: '2026-01-01T12:00:00Z' }) } });
    fireEvent.change(name, { target: { value: 'Renamed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.went).toEqual([`/keys/${ID}`]));
    const put = network.calls.find((c) => c.method === 'PUT');
    expect(network.headersOf(put)['if-match']).toBe(versionTag(entry()));
    expect(put?.body).toMatchObject({ name: 'Renamed' });
  });

  it('on 412 says the key changed, keeps the page, and reloads the current key on request', async () => {
    signIn(user(1, 'user'));
    let version = entry();
    network.on(`GET /v2/keys/${ID}`, () => ({ body: { keys: { [ID]: version } } }));
    network.on(`PUT /v2/keys/${ID}`, (call) =>
      network.headersOf(call)['if-match'] === versionTag(version)
        ? { body: { keys: { [ID]: { ...version, ...(call.body as object), updatedAt: '2026-01-03T00:00:00Z' } } } }
        : {
            status: 412,
            body: { error: STALE_MESSAGES.key, code: 'precondition_failed', requestId: 'r1' },
          },
    );
    page({ action: 'edit', id: ID });
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Loaded'));
    // Someone else renames it meanwhile.
    version = entry({ name: 'Theirs', updatedAt: '2026-01-02T00:00:00Z' });
    fireEvent.change(name, { target: { value: 'Mine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const stale = await screen.findByTestId('stale-key');
    expect(stale.textContent).toContain(STALE_MESSAGES.key);
    expect(network.went).toEqual([]);
    expect(useStore.getState().alerts).toEqual([]);
    fireEvent.click(within(stale).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(name.value).toBe('Theirs'));
    expect(screen.queryByTestId('stale-key')).toBeNull();
    fireEvent.change(name, { target: { value: 'Mine again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.went).toEqual([`/keys/${ID}`]));
    expect(network.calls.filter((c) => c.method === 'PUT').map((c) => network.headersOf(c)['if-match'])).toEqual([
      versionTag(entry()),
      versionTag(version),
    ]);
  });

  it('alerts a failure other than 412 as before', async () => {
    signIn(user(1, 'user'));
    network.on(`GET /v2/keys/${ID}`, { body: { keys: { [ID]: entry() } } });
    network.on(`PUT /v2/keys/${ID}`, { status: 503, body: { error: 'Down for a moment.' } });
    page({ action: 'edit', id: ID });
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Loaded'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(useStore.getState().alerts.map((a) => a.text)).toEqual(['Down for a moment.']));
    expect(screen.queryByTestId('stale-key')).toBeNull();
  });
});

describe('last used, to the minute', () => {
  it('on the key page', async () => {
    signIn(user(1, 'user'));
    network.on(`GET /v2/keys/${ID}`, { body: { keys: { [ID]: entry() } } });
    page({ id: ID });
    await waitFor(() => expect(document.body.textContent).toContain('6/3/26 10:59am'));
  });

  it('in the key table', async () => {
    signIn(user(1, 'user'));
    network.on('GET /v2/keys', { body: { keys: { [ID]: entry() } } });
    renderPage(<KeysSection userId={1} mayAdd />);
    const table = await screen.findByRole('table', { name: 'API keys' });
    await waitFor(() => expect(within(table).getByText('6/3/26 10:59am')).toBeTruthy());
  });
});
