import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import { checkAllowlist, checkExpiry, keySettings } from './key-editor';
import KeyPage from './key-page';

setupPageTests();

const ID = 'AbCdEfGh12345678';
const SECRET = 'S3cretS3cretS3cretS3cretS3cret99';

const entry = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Key ${id.slice(0, 4)}`,
  userId: 1,
  organizationId: 3,
  lastFour: 'et99',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  expiresAt: null,
  ipAllowlist: [],
  rateLimit: null,
  allowedRecordTypes: [],
  legacy: false,
  mode: 'live',
  previousValidUntil: null,
  ...extra,
});

const page = (params: Record<string, string>) => renderPage(<KeyPage {...({ params } as unknown as PageProps)} />);

describe('new key', () => {
  it('shows the whole key once, and neither the store nor the page keeps the secret', async () => {
    signIn({ ...user(1, 'user'), allowedRecordTypes: ['emails', 'phones'] });
    network.on('POST /v2/keys', { status: 201, body: { keys: { [ID]: entry(ID, { name: 'CI', secret: SECRET }) } } });
    page({ id: 'add' });
    // Record types are the user's own.
    expect(screen.getByLabelText('emails')).toBeTruthy();
    expect(screen.queryByLabelText('vehicles')).toBeNull();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'CI' } });
    fireEvent.click(screen.getByLabelText('phones'));
    fireEvent.click(screen.getByRole('button', { name: 'Create Key' }));
    const dialog = await screen.findByRole('dialog', { name: 'New key CI' });
    expect(within(dialog).getByTestId('new-key').textContent).toBe(`${ID}${SECRET}`);
    expect(within(dialog).getByTestId('new-key-curl').textContent).toContain(`Authorization: Bearer ${ID}${SECRET}`);
    expect(network.calls.at(-1)?.body).toMatchObject({ name: 'CI', allowedRecordTypes: ['phones'], legacy: false });
    // Merged without the secret.
    const stored = (useStore.getState().areas.keys as Record<string, Record<string, unknown>>)[ID];
    expect(stored?.name).toBe('CI');
    expect(JSON.stringify(useStore.getState())).not.toContain(SECRET);
    fireEvent.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(document.body.innerHTML).not.toContain(SECRET));
    expect(network.went).toEqual([`/keys/${ID}`]);
  });

  it('refuses a bad allowlist entry, a past expiry and sends settings in the API’s shape', () => {
    expect(checkAllowlist('10.0.0.0/8\nbad')).toBe('"bad" is not an IPv4 or IPv6 address or CIDR range.');
    expect(checkAllowlist('10.0.0.0/8, ::1')).toBeUndefined();
    expect(checkExpiry('2000-01-01')).toBe('Please provide an expiry in the future.');
    expect(checkExpiry('2999-01-01')).toBeUndefined();
    expect(
      keySettings({
        name: ' A ',
        expires: '',
        ipAllowlist: '10.0.0.1\n',
        rateLimit: '60',
        recordTypes: 'emails,ips',
        legacy: 'true',
        mode: 'live',
      }),
    ).toEqual({
      name: 'A',
      expiresAt: null,
      ipAllowlist: ['10.0.0.1/32'],
      rateLimit: 60,
      allowedRecordTypes: ['emails', 'ips'],
      legacy: true,
    });
  });
});

describe('revoking', () => {
  it('revokes a comma-separated list after one confirmation', async () => {
    const other = 'ZyXwVuTs98765432';
    signIn(user(1, 'user'));
    network.on('GET /v2/keys', { body: { keys: { [ID]: entry(ID), [other]: entry(other) } } });
    for (const id of [ID, other]) {
      network.on(`DELETE /v2/keys/${id}`, { body: { keys: { [id]: { id, deletedAt: '2026-02-01T00:00:00Z' } } } });
    }
    page({ action: 'delete', id: `${ID},${other}` });
    const text = await screen.findByTestId('confirm-text');
    expect(text.textContent).toContain('Key AbCd');
    expect(text.textContent).toContain('Key ZyXw');
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(network.went).toEqual(['/users/1#keys']));
    expect(network.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `/v2/keys/${ID}`,
      `/v2/keys/${other}`,
    ]);
    expect(useStore.getState().areas.keys).toEqual({});
  });

  it('treats an address that is not a key as not found', () => {
    signIn(user(1, 'user'));
    page({ id: '12' });
    expect(screen.getByTestId('location').textContent).toBe('/error/404');
  });
});
