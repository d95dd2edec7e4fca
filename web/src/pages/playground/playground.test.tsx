import { LOOKUP_LIMITS } from '@tessera/common/lookups';
import { PLAYGROUND_DEFAULTS } from '@tessera/common/settings';
import { MESSAGES } from '@tessera/common/validation';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useSettings } from '../../lib/settings';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import { BATCH_MESSAGES, parseBatch } from './batch';
import { pythonLiteral, sampleCode, sampleRequest } from './code-samples';
import { parseCsv } from './csv';
import { sortRows } from './csv-table';
import { explainBars, explainedIdentities } from './explain-chart';
import { fallbackParams, paramsFrom, resetOpenApi } from './openapi';
import PlaygroundPage from './playground-page';
import { DEFAULT_STATE, parseState, requestUrl, stateSearch, withEndpoint } from './playground-state';
import { getProblem, inputError, optionError } from './validate';

setupPageTests();

const OPENAPI = {
  paths: {
    '/v2/identities/byEmail': {
      get: {
        parameters: [
          { name: 'email', in: 'query', required: true, description: 'An e-mail address.', example: 'a@b.example' },
          { name: 'format', in: 'query', required: false, description: 'json or csv.' },
        ],
      },
    },
  },
};

/** Lookup calls as the page made them: method, path with query, body. */
let lookups: { method: string; url: string; body: unknown; headers: Record<string, string> }[] = [];

beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  resetOpenApi();
  lookups = [];
  useSettings.setState({ language: 'JavaScript', itemsPerPage: 100 });
  network.on('GET /v2/templates', {
    body: {
      templates: {
        1: { id: 1, name: 'Full', publishedVersion: 1 },
        9: { id: 9, name: 'Draft', publishedVersion: null },
      },
    },
  });
  network.on('GET /v2/openapi.json', { body: OPENAPI });
  const fake = globalThis.fetch;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    if (!url.startsWith('/v2/identities/')) return fake(url, init);
    const headers = init.headers as Record<string, string>;
    lookups.push({
      method: init.method ?? 'GET',
      url,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers,
    });
    if (url.includes('id=999')) {
      return new Response(JSON.stringify({ error: 'Template 3 failed: boom', code: 'x' }), {
        status: 422,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-2' },
      });
    }
    if (headers.accept === 'text/csv') {
      return new Response('input.id,score,id,name\r\n7,100,7,"Doe, Jane"\r\n', {
        headers: { 'content-type': 'text/csv; charset=utf-8', 'x-request-id': 'req-1' },
      });
    }
    return new Response(JSON.stringify({ requestId: 'req-1', identities: [{ score: 100, id: 7, name: 'Jane Doe' }] }), {
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-1' },
    });
  });
});

describe('query-string state', () => {
  it('starts at exactly the spec §2 defaults, written as an empty query string', () => {
    const state = parseState(new URLSearchParams());
    expect(state).toEqual(DEFAULT_STATE);
    expect(state.method).toBe(PLAYGROUND_DEFAULTS.method);
    expect(`/v2/identities/${state.endpoint}`).toBe(PLAYGROUND_DEFAULTS.path);
    expect(state.format).toBe('csv');
    expect(state.template).toBe('');
    expect(state.autoFetch).toBe(true);
    expect(state.pane).toBe(50);
    expect(stateSearch(state).toString()).toBe('');
  });

  it('takes the pane size the settings remember when the link names none, and the link one when it does', () => {
    expect(parseState(new URLSearchParams(), 80).pane).toBe(80);
    expect(parseState(new URLSearchParams('pane=60'), 80).pane).toBe(60);
    expect(parseState(new URLSearchParams(), 95).pane).toBe(80);
  });

  it('round-trips a full request through the query string', () => {
    const state = {
      ...DEFAULT_STATE,
      endpoint: 'byPii' as const,
      format: 'json' as const,
      template: '3',
      minScore: '60',
      limit: '5',
      explain: true,
      autoFetch: false,
      pane: 80,
      inputs: { firstName: 'Robert ', lastName: 'Smith', state: 'IL' },
    };
    const search = stateSearch(state);
    expect(parseState(new URLSearchParams(search.toString()))).toEqual(state);
    expect(search.get('auto')).toBe('off');
    const post = {
      ...DEFAULT_STATE,
      method: 'POST' as const,
      endpoint: 'byEmail' as const,
      batch: 'a@b.example\nc@d.example',
    };
    expect(parseState(stateSearch(post))).toEqual(post);
  });

  it('ignores unknown values and inputs the path does not take', () => {
    const state = parseState(new URLSearchParams('method=PATCH&path=byNothing&format=xml&pane=5&template=x&vin=1'));
    expect(state.method).toBe('GET');
    expect(state.endpoint).toBe('byAny');
    expect(state.format).toBe('csv');
    expect(state.pane).toBe(20);
    expect(state.template).toBe('');
    expect(parseState(new URLSearchParams('path=byEmail&vin=1')).inputs).toEqual({});
    expect(
      withEndpoint({ ...DEFAULT_STATE, inputs: { email: 'a@b.example', zip: '62701' } }, 'byEmail').inputs,
    ).toEqual({
      email: 'a@b.example',
    });
  });

  it('builds the lookup URL with inputs and options', () => {
    const state = { ...DEFAULT_STATE, endpoint: 'byId' as const, inputs: { id: '7' }, explain: true, template: '2' };
    expect(requestUrl(state)).toBe('/v2/identities/byId?id=7&format=csv&template=2&explain=true');
    expect(requestUrl({ ...state, method: 'POST' })).toBe('/v2/identities/byId');
  });
});

describe('validation', () => {
  it('applies the spec §5 rules and the lookup key rules', () => {
    expect(inputError('email', 'nope')).toBe(MESSAGES.email);
    expect(inputError('email', 'a@b.example')).toBeNull();
    expect(inputError('zip', '1234')).toBe(MESSAGES.zip);
    expect(inputError('zip', '62701')).toBeNull();
    expect(inputError('state', 'XX')).toBe(MESSAGES.state);
    expect(inputError('state', 'IL')).toBeNull();
    expect(inputError('id', '7a')).toBe(MESSAGES.integer);
    expect(inputError('id', '7')).toBeNull();
    expect(inputError('id', '5040851900001')).toBeNull();
    expect(inputError('id', '0')).toBe(MESSAGES.integer);
    expect(inputError('md5', 'abc')).toMatch(/MD5/);
    expect(optionError('minScore', '101')).toBe(MESSAGES.number);
    expect(optionError('limit', '0')).toBe(MESSAGES.integer);
    expect(optionError('limit', '')).toBeNull();
  });

  it('says what a lookup still needs', () => {
    expect(getProblem(DEFAULT_STATE)).toMatch(/^byAny needs at least one of its inputs/);
    expect(getProblem({ ...DEFAULT_STATE, inputs: { email: 'a@b.example' } })).toBeNull();
    const pii = { ...DEFAULT_STATE, endpoint: 'byPii' as const };
    expect(getProblem({ ...pii, inputs: { firstName: 'Ann' } })).toMatch(/firstName and lastName/);
    expect(getProblem({ ...pii, inputs: { firstName: 'Ann', lastName: 'Lee' } })).toMatch(/zip, or a state/);
    expect(getProblem({ ...pii, inputs: { firstName: 'Ann', lastName: 'Lee', zip: '62701' } })).toBeNull();
    expect(getProblem({ ...pii, inputs: { firstName: 'Ann', lastName: 'Lee', zip: '627' } })).toBe(
      `zip: ${MESSAGES.zip}`,
    );
  });

  it('reads a batch as lines or as CSV with a header, up to the batch limit', () => {
    expect(parseBatch('byEmail', 'a@b.example\n\nc@d.example\n')).toEqual({
      inputs: ['a@b.example', 'c@d.example'],
      problem: null,
    });
    expect(parseBatch('byEmail', 'a@b.example\nbad').problem).toBe(`line 2: ${MESSAGES.email}`);
    expect(parseBatch('byPii', 'firstName,lastName,zip\nAnn,Lee,62701\n"Bo, Jr",Ray,')).toEqual({
      inputs: [
        { firstName: 'Ann', lastName: 'Lee', zip: '62701' },
        { firstName: 'Bo, Jr', lastName: 'Ray' },
      ],
      problem: null,
    });
    expect(parseBatch('byPii', 'Ann Lee').problem).toMatch(/header/);
    expect(parseBatch('byId', '').problem).toBe(BATCH_MESSAGES.empty);
    const many = Array.from({ length: LOOKUP_LIMITS.maxInputs + 1 }, (_, i) => String(i + 1)).join('\n');
    expect(parseBatch('byId', many).problem).toBe(BATCH_MESSAGES.tooMany);
  });
});

describe('parts', () => {
  it('parses CSV and sorts numbers as numbers', () => {
    expect(parseCsv('a,b\r\n"x, ""y""",2\n\nz,10\n').rows).toEqual([
      ['a', 'b'],
      ['x, "y"', '2'],
      ['z', '10'],
    ]);
    expect(parseCsv('a,b\n1,2\n3,', false)).toEqual({
      rows: [
        ['a', 'b'],
        ['1', '2'],
      ],
      rest: '3,',
    });
    expect(sortRows([['10'], ['9'], ['x']], 0, 'asc').map((r) => r[0])).toEqual(['9', '10', 'x']);
  });

  it('makes the form from the OpenAPI parameters, options left out', () => {
    expect(paramsFrom(OPENAPI, 'byEmail')).toEqual([
      { name: 'email', required: true, description: 'An e-mail address.', example: 'a@b.example' },
    ]);
    expect(paramsFrom(OPENAPI, 'byId')).toBeNull();
    expect(fallbackParams('byId')[0]).toMatchObject({ name: 'id', required: true });
  });

  it('writes samples of the exact request with the key as a placeholder', () => {
    const get = sampleRequest({ ...DEFAULT_STATE, endpoint: 'byId', inputs: { id: '7' } }, 'https://t.example');
    for (const language of ['curl', 'JavaScript', 'Python', 'Java'] as const) {
      expect(sampleCode(language, get)).toContain('YOUR_API_KEY');
    }
    expect(sampleCode('curl', get)).toContain('https://t.example/v2/identities/byId?id=7&format=csv');
    // The client libraries, with the same endpoint, input and options.
    expect(sampleCode('JavaScript', get)).toContain('client.lookup("byId", { id: "7" }, { format: "csv" })');
    expect(sampleCode('Python', get)).toContain('client.by_id.get({\n    "id": "7",\n}, format="csv")');
    expect(sampleCode('Java', get)).toContain(
      'client.lookupCsv(Endpoint.BY_ID, LookupInput.named(Map.of("id", "7")), LookupOptions.defaults())',
    );
    const post = sampleRequest({ ...DEFAULT_STATE, method: 'POST', endpoint: 'bySha256', explain: true }, '', ['7']);
    expect(post.body).toEqual({ inputs: ['7'], format: 'csv', explain: true });
    expect(sampleCode('Python', post)).toContain('client.by_sha256.batch([\n    "7",\n], explain=True, format="csv")');
    expect(sampleCode('Java', post)).toContain(
      'client.batchCsv(Endpoint.BY_SHA256, List.of(LookupInput.plain("7")), LookupOptions.defaults().explain(true))',
    );
    expect(sampleCode('JavaScript', post)).toContain(
      'client.batch("bySha256", ["7"], { explain: true, format: "csv" })',
    );
    expect(pythonLiteral({ a: [null, false] })).toBe('{\n    "a": [\n        None,\n        False,\n    ],\n}');
  });
});

describe('explanation', () => {
  it('reads per-field weights and key probabilities from explain', () => {
    const explain = {
      keys: [{ input: 'email', probability: 0.923 }],
      pii: {
        weight: 9,
        fields: { firstName: { level: 'exact', weight: 4.2 }, zip: { level: 'differs', weight: -1.5 } },
      },
    };
    expect(explainBars(explain)).toEqual({
      fields: [
        { label: 'firstName (exact)', value: 4.2 },
        { label: 'zip (differs)', value: -1.5 },
      ],
      keys: [{ label: 'email', value: 92.3 }],
    });
    expect(explainedIdentities({ identities: [{ id: 1, explain }, { id: 2 }] })).toHaveLength(1);
    expect(explainedIdentities({ results: [{ identities: [{ id: 1, explain }] }, { identities: [] }] })).toHaveLength(
      1,
    );
    expect(explainedIdentities(null)).toEqual([]);
  });
});

describe('playground page', () => {
  beforeEach(() => signIn(user(5, 'user')));

  it('opens at the defaults and sends nothing until an input is valid', async () => {
    renderPage(<PlaygroundPage />, '/playground');
    expect(screen.getByRole('button', { name: 'GET' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'CSV' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('combobox', { name: 'Path' }).textContent).toBe('/v2/identities/byAny');
    expect((screen.getByRole('switch', { name: 'Auto-fetch' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    await screen.findByTestId('reply-hint');
    await new Promise((r) => setTimeout(r, 400));
    expect(lookups).toEqual([]);
  });

  it('re-fetches once after typing stops and shows the CSV reply as a table', async () => {
    renderPage(<PlaygroundPage />, '/playground?path=byId');
    const field = await screen.findByLabelText('id');
    for (const value of ['7', '7x', '7']) fireEvent.change(field, { target: { value } });
    await waitFor(() => expect(lookups).toHaveLength(1));
    expect(lookups[0]!.url).toBe('/v2/identities/byId?id=7&format=csv');
    expect(lookups[0]!.headers['x-requested-with']).toBe('XMLHttpRequest');
    const table = await screen.findByTestId('csv-table');
    expect(within(table).getByText('Doe, Jane')).toBeTruthy();
    expect(screen.getByTestId('reply-status').textContent).toBe('200');
    expect(screen.getByTestId('reply-request-id').textContent).toBe('Request id req-1');
    expect(screen.getByTestId('reply-size').textContent).toMatch(/^\d+ B$/);
    await new Promise((r) => setTimeout(r, 400));
    expect(lookups).toHaveLength(1);
  });

  it('shows a field error after blur and never sends an invalid request', async () => {
    renderPage(<PlaygroundPage />, '/playground?path=byEmail');
    const field = await screen.findByLabelText('email');
    fireEvent.change(field, { target: { value: 'nope' } });
    expect(screen.queryByText(MESSAGES.email)).toBeNull();
    fireEvent.blur(field);
    expect(screen.getByText(MESSAGES.email)).toBeTruthy();
    await new Promise((r) => setTimeout(r, 400));
    expect(lookups).toEqual([]);
  });

  it('restores a request from its link, JSON as a tree, and shows errors in place', async () => {
    renderPage(<PlaygroundPage />, '/playground?path=byId&id=7&format=json&auto=off');
    expect((screen.getByLabelText('id') as HTMLInputElement).value).toBe('7');
    expect(screen.getByRole('button', { name: 'JSON' }).getAttribute('aria-pressed')).toBe('true');
    await new Promise((r) => setTimeout(r, 400));
    expect(lookups).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const tree = await screen.findByTestId('json-tree');
    expect(within(tree).getByText('"Jane Doe"')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('id'), { target: { value: '999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByTestId('reply-error')).textContent).toBe('Template 3 failed: boom');
    expect(screen.getByTestId('reply-status').textContent).toBe('422');
  });

  it('sends a POST batch with its options in the body, and offers published templates', async () => {
    renderPage(<PlaygroundPage />, '/playground?method=POST&path=byId&format=json&explain=true');
    fireEvent.change(screen.getByLabelText('Inputs'), { target: { value: '7\n8' } });
    await waitFor(() => expect(lookups).toHaveLength(1));
    expect(lookups[0]).toMatchObject({
      method: 'POST',
      url: '/v2/identities/byId',
      body: { inputs: ['7', '8'], format: 'json', explain: true },
    });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Template (optional)' }));
    const list = await screen.findByRole('listbox');
    expect(within(list).getByText('Full (1)')).toBeTruthy();
    expect(within(list).queryByText(/Draft/)).toBeNull();
  });

  it('remembers the code-sample language in settings', async () => {
    renderPage(<PlaygroundPage />, '/playground?path=byId&id=7&auto=off');
    fireEvent.click(screen.getByRole('tab', { name: 'Python' }));
    expect(useSettings.getState().language).toBe('Python');
    expect(screen.getByTestId('sample-code').textContent).toContain('from tessera import Tessera');
    await act(async () => {});
  });
});
