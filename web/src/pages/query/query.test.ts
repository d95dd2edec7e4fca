/**
 * The query page's pieces without a browser: the completion namespace from a cluster's tables, and the calls
 * (fetch answered by a recorder): a 403 step_up_required and a query's 400 stay with the page (no error page,
 * no alert), and a result is not merged into the store.
 */
import { ANONYMOUS_USER } from '@tessera/common/entities';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api';
import { setNavigator } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { needsStepUp, newRunId, runQuery } from './query-api';
import { namespaceOf } from './schema-namespace';

let went: string[];
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answer = (response: Response) => vi.stubGlobal('fetch', async () => response);

beforeEach(() => {
  went = [];
  setNavigator((to) => went.push(to));
  useStore.setState({ self: ANONYMOUS_USER, areas: {}, alerts: [] });
});
afterEach(() => vi.unstubAllGlobals());

describe('namespaceOf', () => {
  it('nests schema-qualified tables for completion', () => {
    expect(namespaceOf({ 'public.users': ['id', 'email'], 'public.keys': ['id'], 'audit.log': ['at'] })).toEqual({
      public: { users: ['id', 'email'], keys: ['id'] },
      audit: { log: ['at'] },
    });
  });
});

describe('runQuery', () => {
  const input = { cluster: 'main', sql: 'select 1', maxRows: 10 };

  it('keeps a step-up 403 for the page: no error page, no alert', async () => {
    answer(json(403, { error: 'Please confirm your password to use the query console.', code: 'step_up_required' }));
    const err = await runQuery(input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(needsStepUp((err as ApiError).status, (err as ApiError).body)).toBe(true);
    expect(went).toEqual([]);
    expect(useStore.getState().alerts).toEqual([]);
  });

  it('keeps a refusal for the page, and sends any other 403 to the error page', async () => {
    answer(json(400, { error: 'The query console is read-only.', code: 'bad_request' }));
    await expect(runQuery(input)).rejects.toThrow('The query console is read-only.');
    expect(useStore.getState().alerts).toEqual([]);
    answer(json(403, { error: 'Forbidden', code: 'forbidden' }));
    await expect(runQuery(input)).rejects.toBeInstanceOf(ApiError);
    expect(went).toEqual(['/error/403']);
  });

  it('answers the result without merging it into the store', async () => {
    const result = { columns: [{ name: 'x', type: 'int4' }], rows: [['1']], rowCount: 1, truncated: false, ms: 2 };
    answer(json(200, result));
    expect(await runQuery(input)).toEqual(result);
    expect(useStore.getState().areas).toEqual({});
  });
});

it('newRunId makes v4 UUIDs', () => {
  expect(newRunId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});
