import { StringStream } from '@codemirror/language';
import type { ResourceParams } from '@tessera/common/routes';
import type { Template } from '@tessera/common/templates';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageProps } from '../../app/page-modules';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import { tokenize } from './jsonata-language';
import { compileErrorOf } from './template-api';
import { diagnosticOf } from './template-code';
import { saveStateText } from './template-editor';
import { changedSettings, diffRows, editorsLabel, offsetOf, ownerLabel } from './template-logic';
import TemplatePage from './template-page';
import { paneSize } from './template-settings';
import TemplatesPage, { filterByName } from './templates-page';

setupPageTests();

// The split pane measures itself; jsdom has no ResizeObserver.
beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  // CodeMirror measures text; jsdom's ranges have no boxes.
  Range.prototype.getClientRects ??= () =>
    ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as never;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
  // The editor's autocomplete of who may edit.
  network.on('GET /v2/users', { body: { users: { 5: { ...user(5, 'user'), name: 'Pat' } } } });
  network.on('GET /v2/organizations', {
    body: { organizations: { 3: { id: 3, name: 'Acme', emailDomain: null, acceptUsers: false } } },
  });
});

const template = (id: number, extra: Partial<Template> = {}): Template => ({
  id,
  name: `Template ${id}`,
  description: '',
  organizationId: 3,
  adminIds: [],
  createdBy: 1,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-02T15:04:00Z',
  publishedVersion: 1,
  expression: '{ "id": id }',
  draft: null,
  versions: [{ version: 1, expression: '{ "id": id }', publishedAt: '2026-01-02T00:00:00Z', createdBy: 1 }],
  ...extra,
});

const PREVIEW = { preview: { format: 'json', identities: [{ score: 100, id: 7 }], csv: null, metered: false } };

const page = (resource: ResourceParams) =>
  renderPage(<TemplatePage {...({ resource, params: {} } as unknown as PageProps)} />);

function resetSettings(autoSave = true) {
  useSettings.setState({ templates: { autoSave, templatePaneSize: 50 } });
}

describe('pure parts', () => {
  it('places a compile error by line and column and marks the failing token', () => {
    const doc = '{\n  "a": foo bar\n}';
    expect(offsetOf(doc, 2, 3)).toBe(4);
    expect(offsetOf(doc, 9, 99)).toBe(doc.length);
    const d = diagnosticOf(doc, { line: 2, column: 12, message: 'Expected "}"' });
    expect(doc.slice(d.from, d.to)).toBe('bar');
    expect(d.message).toBe('Line 2, column 12: Expected "}"');
    expect(
      compileErrorOf({ fields: [{ path: 'body.expression', message: 'Syntax error: ")"', line: 3, column: 5 }] }),
    ).toEqual({ message: 'Syntax error: ")"', line: 3, column: 5 });
    expect(compileErrorOf({ fields: [{ path: 'body.name', message: 'x' }] })).toBeNull();
  });

  it('saves only what changed, so a rename alone opens no draft', () => {
    const saved = { name: 'A', description: '', adminIds: [4], expression: '$' };
    expect(changedSettings(saved, { ...saved, name: ' B ' })).toEqual({ name: 'B' });
    expect(changedSettings(saved, { ...saved, expression: '$$' })).toEqual({ expression: '$$' });
    expect(changedSettings(saved, { ...saved, adminIds: [4, 9] })).toEqual({ adminIds: [4, 9] });
    expect(changedSettings(saved, saved)).toEqual({});
  });

  it('diffs the published expression and the draft by line', () => {
    expect(diffRows('a\nb\nc', 'a\nB\nc').map((r) => `${r.kind}:${r.text}`)).toEqual([
      'same:a',
      'removed:b',
      'added:B',
      'same:c',
    ]);
  });

  it('tokenizes JSONata for highlighting', () => {
    const tokens = (line: string) => {
      const stream = new StringStream(line, 2, 2);
      const state = { inComment: false, afterValue: false };
      const out: string[] = [];
      while (!stream.eol()) {
        stream.start = stream.pos;
        const type = tokenize(stream, state);
        if (type) out.push(`${type}:${stream.current()}`);
      }
      return out;
    };
    expect(tokens('$sum(price) / 2 /* c */ and "x"')).toEqual([
      'variableName.function:$sum',
      'bracket:(',
      'propertyName:price',
      'bracket:)',
      'operator:/',
      'number:2',
      'comment:/* c */',
      'keyword:and',
      'string:"x"',
    ]);
    expect(tokens('name ~> /ab+c/i')).toEqual(['propertyName:name', 'operator:~>', 'regexp:/ab+c/i']);
  });

  it('labels owners, editors, save states and keeps pane sizes in bounds', () => {
    const orgs = { 3: { id: 3, name: 'Acme', emailDomain: null, acceptUsers: false, createdAt: '', updatedAt: '' } };
    expect(ownerLabel({ organizationId: null }, orgs)).toBe('System');
    expect(ownerLabel({ organizationId: 3 }, orgs)).toBe('Acme');
    expect(ownerLabel({ organizationId: 8 }, orgs)).toBe('Organization 8');
    expect(editorsLabel({ organizationId: 3, adminIds: [3, 12] }, {}, orgs)).toBe(
      'System Administrators, Acme (organization), #12',
    );
    expect(editorsLabel({ organizationId: null, adminIds: [] }, {}, orgs)).toBe('System Administrators');
    expect(saveStateText({ kind: 'saving' }, true)).toBe('Saving…');
    expect(saveStateText({ kind: 'saved' }, true)).toBe('Saved');
    expect(paneSize(95)).toBe(80);
    expect(paneSize('x')).toBe(50);
    expect(filterByName([template(1), template(22)], ' template 2')).toHaveLength(1);
  });
});

describe('templates list', () => {
  it('shows owner, versions, draft, updated and editors; edit links only where the user may edit', async () => {
    signIn(user(5, 'user', 3));
    network.on('GET /v2/templates', {
      body: {
        templates: {
          1: template(1, { name: 'Full', organizationId: null }),
          101: template(101, {
            name: 'Mine',
            adminIds: [5],
            draft: { expression: '$', version: 2, updatedAt: '', createdBy: 5 },
          }),
          102: template(102, { name: 'Theirs', adminIds: [9] }),
        },
      },
    });
    network.on('GET /v2/users', { body: { users: { 5: { ...user(5, 'user'), name: 'Pat' } } } });
    network.on('GET /v2/organizations', {
      body: { organizations: { 3: { id: 3, name: 'Acme', emailDomain: null, acceptUsers: false } } },
    });
    renderPage(<TemplatesPage />);
    await waitFor(() => expect(screen.getAllByTestId('template-row')).toHaveLength(3));
    const mine = screen.getAllByTestId('template-row')[1] as HTMLElement;
    await waitFor(() => expect(mine.textContent).toContain('Acme'));
    expect(mine.textContent).toContain('Version 1');
    expect(mine.textContent).toContain('Version 2');
    expect(mine.textContent).toContain('1/2/26');
    expect(mine.textContent).toContain('System Administrators, Pat');
    expect(screen.getByRole('link', { name: 'Edit Mine' }).getAttribute('href')).toBe('/templates/edit/101');
    expect(screen.queryByRole('link', { name: 'Edit Theirs' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit Full' })).toBeNull();
    expect(screen.getByRole('link', { name: 'View Full' }).getAttribute('href')).toBe('/templates/1');
    fireEvent.change(screen.getByLabelText('Filter by name'), { target: { value: 'THEI' } });
    expect(screen.getAllByTestId('template-row').map((r) => r.dataset.templateId)).toEqual(['102']);
  });
});

describe('editor', () => {
  it('creates a template with its first draft and goes to its editor', async () => {
    resetSettings();
    signIn(user(5, 'user', 3));
    network.on('POST /v2/templates/preview', { body: PREVIEW });
    network.on('POST /v2/templates', { status: 201, body: { templates: { 140: template(140, { name: 'New' }) } } });
    page({ mode: 'create', ids: [] });
    expect(screen.getByRole('heading', { name: 'New Template' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'New' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Template' }));
    await waitFor(() => expect(network.went).toEqual(['/templates/edit/140']));
    const post = network.calls.find((c) => c.method === 'POST' && c.path === '/v2/templates');
    expect(post?.body).toMatchObject({ name: 'New', description: '', adminIds: [] });
    expect((post?.body as { expression: string } | undefined)?.expression).toContain('firstName');
  });

  it('renders the preview, and shows a compile error at its line and a runtime error in place', async () => {
    resetSettings();
    signIn(user(5, 'user', 3));
    let answer: { status?: number; body: unknown } = { body: PREVIEW };
    network.on('POST /v2/templates/preview', () => answer);
    network.on('GET /v2/templates/101', { body: { templates: { 101: template(101, { adminIds: [5] }) } } });
    page({ mode: 'edit', ids: [101] });
    await waitFor(() => expect(screen.getByTestId('preview-output').textContent).toContain('"id": 7'));

    answer = {
      status: 400,
      body: {
        error: 'The expression does not compile: Expected "}"',
        fields: [{ path: 'body.expression', message: 'Expected "}"', line: 1, column: 3 }],
      },
    };
    fireEvent.click(screen.getByRole('tab', { name: 'CSV' }));
    await screen.findByTestId('lint-message');
    expect(screen.getByTestId('lint-message').textContent).toBe('Line 1, column 3: Expected "}"');
    expect(useStore.getState().alerts).toEqual([]);

    answer = { status: 422, body: { error: 'Template 0 (preview) failed: $sum: not a number.' } };
    fireEvent.click(screen.getByRole('tab', { name: 'JSON' }));
    await screen.findByTestId('preview-failure');
    expect(screen.getByTestId('preview-failure').textContent).toContain('not a number');
    expect(screen.queryByTestId('lint-message')).toBeNull();
    expect(useStore.getState().alerts).toEqual([]);
  });

  it('saves a change by itself when autoSave is on, and shows Saving… then Saved', async () => {
    resetSettings(true);
    signIn(user(5, 'user', 3));
    network.on('POST /v2/templates/preview', { body: PREVIEW });
    network.on('GET /v2/templates/101', { body: { templates: { 101: template(101, { adminIds: [5] }) } } });
    network.on('PUT /v2/templates/101', (call) => ({
      body: { templates: { 101: template(101, { adminIds: [5], ...(call.body as object) }) } },
    }));
    page({ mode: 'edit', ids: [101] });
    const name = await screen.findByLabelText('Name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Template 101'));
    expect(screen.getByTestId('save-state').textContent).toBe('Saved');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    fireEvent.change(name, { target: { value: 'Renamed' } });
    expect(screen.getByTestId('save-state').textContent).toBe('Unsaved changes');
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toBe('Saved'), { timeout: 3000 });
    const puts = network.calls.filter((c) => c.method === 'PUT');
    expect(puts).toEqual([{ method: 'PUT', path: '/v2/templates/101', body: { name: 'Renamed' } }]);
  });

  it('waits for the Save button when autoSave is off', async () => {
    resetSettings(false);
    signIn(user(5, 'user', 3));
    network.on('POST /v2/templates/preview', { body: PREVIEW });
    network.on('GET /v2/templates/101', { body: { templates: { 101: template(101, { adminIds: [5] }) } } });
    network.on('PUT /v2/templates/101', (call) => ({
      body: { templates: { 101: template(101, { adminIds: [5], ...(call.body as object) }) } },
    }));
    page({ mode: 'edit', ids: [101] });
    const name = await screen.findByLabelText('Name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Template 101'));
    fireEvent.change(name, { target: { value: 'By hand' } });
    await act(() => new Promise((r) => setTimeout(r, 1300)));
    expect(network.calls.filter((c) => c.method === 'PUT')).toEqual([]);
    expect(screen.getByTestId('save-state').textContent).toBe('Unsaved changes: press Save');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toBe('Saved'));
    expect(network.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ name: 'By hand' }]);
  });

  it('sends someone not in adminIds from the editor, publish and delete routes to /error/403', async () => {
    signIn(user(5, 'user', 3));
    network.on('POST /v2/templates/preview', { body: PREVIEW });
    network.on('GET /v2/templates/102', { body: { templates: { 102: template(102, { adminIds: [9] }) } } });
    for (const mode of ['edit', 'publish', 'delete'] as const) {
      network.went = [];
      const view = page({ mode, ids: [102] });
      await waitFor(() => expect(network.went).toEqual(['/error/403']));
      view.unmount();
    }
  });
});

describe('view, publish, restore and delete', () => {
  it('shows a read-only view to someone who may not edit', async () => {
    signIn(user(5, 'user', 3));
    network.on('GET /v2/templates/102', { body: { templates: { 102: template(102, { adminIds: [9] }) } } });
    page({ mode: 'view', ids: [102] });
    await screen.findByTestId('read-only');
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Restore/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Copy' }).getAttribute('href')).toBe('/templates/add/102');
  });

  it('shows the diff, publishes, and restores an old version as the draft', async () => {
    signIn(user(5, 'user', 3));
    const draft = {
      expression: '{ "id": id,\n  "n": name }',
      version: 2,
      updatedAt: '2026-01-03T00:00:00Z',
      createdBy: 5,
    };
    network.on('GET /v2/templates/101', { body: { templates: { 101: template(101, { adminIds: [5], draft }) } } });
    network.on('POST /v2/templates/101/publish', {
      body: { templates: { 101: template(101, { adminIds: [5], publishedVersion: 2, draft: null }) } },
    });
    network.on('POST /v2/templates/101/restore', {
      body: { templates: { 101: template(101, { adminIds: [5], draft: { ...draft, expression: '{ "id": id }' } }) } },
    });
    page({ mode: 'publish', ids: [101] });
    const diff = await screen.findByTestId('template-diff');
    expect(diff.querySelectorAll('[data-kind="removed"]')).toHaveLength(1);
    expect(diff.querySelectorAll('[data-kind="added"]')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Restore as draft: version 1' }));
    await waitFor(() =>
      expect(network.calls.at(-1)).toMatchObject({ path: '/v2/templates/101/restore', body: { version: 1 } }),
    );
    await screen.findByText('The draft is the same as the published version.');
    fireEvent.click(screen.getByRole('button', { name: 'Publish Version 2' }));
    await waitFor(() => expect(network.went).toEqual(['/templates/101']));
    expect(useStore.getState().carriedAlerts.map((a) => a.title)).toEqual(['Template Published']);
  });

  it('deletes a comma-separated list after one confirmation', async () => {
    signIn(user(5, 'user', 3));
    const list = { 101: template(101, { adminIds: [5] }), 103: template(103, { adminIds: [3] }) };
    network.on('GET /v2/templates', { body: { templates: list } });
    for (const id of [101, 103]) {
      network.on(`DELETE /v2/templates/${id}`, {
        body: { templates: { [id]: { id, deletedAt: '2026-02-01T00:00:00Z' } } },
      });
    }
    page({ mode: 'delete', ids: [101, 103] });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('confirm-text').textContent).toContain('Template 101 (101), Template 103 (103)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(network.went).toEqual(['/templates']));
    expect(network.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      '/v2/templates/101',
      '/v2/templates/103',
    ]);
    expect(useStore.getState().areas.templates).toEqual({});
  });
});
