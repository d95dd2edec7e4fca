/**
 * Issue 31 on the template editor: saves (automatic or by hand) send If-Match with the version the edits start
 * from, and a 412 is shown in place with a way to load the template as it is now, never overwriting it.
 */
import { STALE_MESSAGES, versionTag } from '@tessera/common/etag';
import type { ResourceParams } from '@tessera/common/routes';
import type { Template } from '@tessera/common/templates';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { type Call, network, renderPage, setupPageTests, signIn, user } from '../test-support';
import TemplatePage from './template-page';

setupPageTests();

beforeEach(() => {
  // The split pane measures itself, CodeMirror measures text: jsdom has neither.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  Range.prototype.getClientRects ??= () =>
    ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as never;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
  network.on('GET /v2/users', { body: { users: {} } });
  network.on('GET /v2/organizations', { body: { organizations: {} } });
  network.on('POST /v2/templates/preview', {
    body: { preview: { format: 'json', identities: [{ score: 100, id: 7 }], csv: null, metered: false } },
  });
});

const template = (extra: Partial<Template> = {}): Template => ({
  id: 101,
  name: 'Loaded',
  description: '',
  organizationId: 3,
  adminIds: [5],
  createdBy: 1,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-02T15:04:00.321Z',
  publishedVersion: 1,
  expression: '{ "id": id }',
  draft: null,
  versions: [{ version: 1, expression: '{ "id": id }', publishedAt: '2026-01-02T00:00:00Z', createdBy: 1 }],
  ...extra,
});

const page = (resource: ResourceParams) =>
  renderPage(<TemplatePage {...({ resource, params: {} } as unknown as PageProps)} />);

/** The server: the template as it is, saved only when If-Match names its version. */
function server(start: Template) {
  const state = { current: start, saves: 0 };
  network.on('GET /v2/templates/101', () => ({ body: { templates: { 101: state.current } } }));
  network.on('PUT /v2/templates/101', (call: Call) => {
    if (network.headersOf(call)['if-match'] !== versionTag(state.current)) {
      return { status: 412, body: { error: STALE_MESSAGES.template, code: 'precondition_failed', requestId: 'r' } };
    }
    state.saves++;
    state.current = { ...state.current, ...(call.body as object), updatedAt: `2026-02-0${state.saves}T00:00:00Z` };
    return { body: { templates: { 101: state.current } } };
  });
  return state;
}
const ifMatches = () => network.calls.filter((c) => c.method === 'PUT').map((c) => network.headersOf(c)['if-match']);

describe('template edits and versions', () => {
  it('saves by itself with the version loaded, then with the version each save returned', async () => {
    useSettings.setState({ templates: { autoSave: true, templatePaneSize: 50 } });
    signIn(user(5, 'user', 3));
    const state = server(template());
    page({ mode: 'edit', ids: [101] });
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Loaded'));
    fireEvent.change(name, { target: { value: 'First' } });
    await waitFor(() => expect(state.saves).toBe(1), { timeout: 3000 });
    fireEvent.change(name, { target: { value: 'Second' } });
    await waitFor(() => expect(state.saves).toBe(2), { timeout: 3000 });
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toBe('Saved'));
    expect(ifMatches()).toEqual([versionTag(template()), versionTag({ updatedAt: '2026-02-01T00:00:00Z' })]);
  });

  it('on 412 says the template changed, saves nothing over it, and reloads it on request', async () => {
    useSettings.setState({ templates: { autoSave: false, templatePaneSize: 50 } });
    signIn(user(5, 'user', 3));
    const state = server(template());
    page({ mode: 'edit', ids: [101] });
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Loaded'));
    // Someone else renames it meanwhile.
    state.current = template({ name: 'Theirs', updatedAt: '2026-01-05T00:00:00Z' });
    fireEvent.change(name, { target: { value: 'Mine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const stale = await screen.findByTestId('stale-template');
    expect(stale.textContent).toContain(STALE_MESSAGES.template);
    expect(screen.getByTestId('save-state').textContent).toBe(`Not saved: ${STALE_MESSAGES.template}`);
    expect(useStore.getState().alerts).toEqual([]);
    expect(state.current.name).toBe('Theirs');
    fireEvent.click(within(stale).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(name.value).toBe('Theirs'));
    expect(screen.queryByTestId('stale-template')).toBeNull();
    expect(screen.getByTestId('save-state').textContent).toBe('Saved');
    fireEvent.change(name, { target: { value: 'Mine, after theirs' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(state.current.name).toBe('Mine, after theirs'));
    expect(ifMatches()).toEqual([versionTag(template()), versionTag({ updatedAt: '2026-01-05T00:00:00Z' })]);
  });

  it('shows a 412 of an automatic save in place too', async () => {
    useSettings.setState({ templates: { autoSave: true, templatePaneSize: 50 } });
    signIn(user(5, 'user', 3));
    const state = server(template());
    page({ mode: 'edit', ids: [101] });
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Loaded'));
    state.current = template({ updatedAt: '2026-01-05T00:00:00Z' });
    fireEvent.change(name, { target: { value: 'Mine' } });
    const stale = await screen.findByTestId('stale-template', {}, { timeout: 3000 });
    expect(stale.textContent).toContain(STALE_MESSAGES.template);
    expect(state.saves).toBe(0);
    expect(useStore.getState().alerts).toEqual([]);
  });
});
