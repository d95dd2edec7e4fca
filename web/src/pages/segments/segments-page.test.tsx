import { SEGMENT_MESSAGES } from '@tessera/common/segments';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import SegmentsPage from './segments-page';

setupPageTests();

const SAVED = {
  id: 5,
  name: 'Golfers',
  filters: { behaviors: [{ category: 'Interests', name: 'Golf' }], ageMin: 35 },
  organizationIds: [],
  createdAt: '',
  updatedAt: '',
  deletedAt: null,
};

function open() {
  signIn(user(1, 'super', null));
  network.on('GET /v2/segments', { body: { segments: { 5: SAVED } } });
  network.on('GET /v2/organizations', { body: { organizations: {} } });
  network.on('GET /v2/templates', { body: { templates: {} } });
  network.on('POST /v2/segments/count', ({ body }) => ({
    body: { count: Object.keys((body as { filters: object }).filters).length === 0 ? 1234 : 7 },
  }));
  return renderPage(<SegmentsPage />, '/segments');
}

const counts = () => network.calls.filter((c) => c.path === '/v2/segments/count');

// The builder renders a dozen MUI fields: on a busy two-core machine a test takes several seconds.
describe('segments page', { timeout: 30_000 }, () => {
  it('shows the saved segments and the size of everyone, then of the filters as they change', async () => {
    open();
    expect(screen.getByRole('tab', { name: 'Segments', selected: true })).toBeTruthy();
    await screen.findByRole('cell', { name: 'Golfers' });
    await screen.findByTestId('segment-size'); // 'Counting…' until the count comes: how long that shows is not ours
    await waitFor(() => expect(screen.getByTestId('segment-size').textContent).toBe('1,234 people'));
    fireEvent.change(screen.getByRole('textbox', { name: 'Age to' }), { target: { value: '54' } });
    await waitFor(() => expect(screen.getByTestId('segment-size').textContent).toBe('7 people'));
    expect(counts().at(-1)?.body).toEqual({ filters: { ageMax: 54 } });
  });

  it('names a bad filter under its field and asks for no size until it is fixed', async () => {
    open();
    await waitFor(() => expect(counts()).toHaveLength(1));
    fireEvent.change(screen.getByRole('textbox', { name: 'Age from' }), { target: { value: '300' } });
    await screen.findByText(SEGMENT_MESSAGES.age);
    expect(screen.getByTestId('segment-size').textContent).toBe('Fix the filters to see the size.');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(counts()).toHaveLength(1);
  });

  it('opens a saved segment into the builder and saves it with a PUT', async () => {
    network.on('PUT /v2/segments/5', ({ body }) => ({ body: { segments: { 5: { ...SAVED, ...(body as object) } } } }));
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Open Golfers' }));
    expect((screen.getByRole('textbox', { name: 'Age from' }) as HTMLInputElement).value).toBe('35');
    fireEvent.click(screen.getByRole('button', { name: 'Save segment' }));
    await screen.findByText('Saved Golfers.');
    expect(network.calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'Golfers',
      filters: SAVED.filters,
      organizationIds: [],
    });
  });

  it('refuses to save without a name', async () => {
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Save segment' }));
    await screen.findByText(SEGMENT_MESSAGES.name);
    expect(network.calls.some((c) => c.method === 'POST' && c.path === '/v2/segments')).toBe(false);
  });
});
