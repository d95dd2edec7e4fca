/**
 * The API client against real Response objects. `fetch` is the browser's, replaced here by a recorder that
 * answers what a test tells it to; everything of ours runs as it does in the console.
 */
import { ANONYMOUS_USER } from '@tessera/common/entities';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, errorText, fieldErrors } from './api';
import { setNavigator } from './navigator';
import { useStore } from './store';

interface Sent {
  url: string;
  init: RequestInit;
}
let sent: Sent[];
let went: string[];

function answer(...responses: Response[]) {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    const next = responses.shift();
    if (!next) throw new Error('no response queued');
    return next;
  });
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

beforeEach(() => {
  sent = [];
  went = [];
  setNavigator((to) => went.push(to));
  useStore.setState({ self: ANONYMOUS_USER, areas: {}, alerts: [] });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('requests (spec §7)', () => {
  it('GET puts the query in the URL and asks for JSON with the CSRF header', async () => {
    answer(json(200, {}));
    await api.get('/v2/usage', { range: 'month', user: undefined, page: 2 });
    expect(sent[0]?.url).toBe('/v2/usage?range=month&page=2');
    expect(sent[0]?.init.method).toBe('GET');
    expect(sent[0]?.init.headers).toMatchObject({ accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' });
  });

  it('POST and PUT send JSON bodies; DELETE sends none', async () => {
    answer(json(200, {}), json(200, {}), json(200, {}));
    await api.post('/v2/keys', { name: 'CI' });
    await api.put('/v2/keys/3', { name: 'Build' });
    await api.del('/v2/keys/3');
    expect(sent.map((s) => [s.init.method, s.init.body])).toEqual([
      ['POST', '{"name":"CI"}'],
      ['PUT', '{"name":"Build"}'],
      ['DELETE', undefined],
    ]);
    expect(sent[0]?.init.headers).toMatchObject({ 'content-type': 'application/json' });
  });

  it('uploads a multipart form with the file named by its content hash', async () => {
    answer(json(200, {}));
    await api.upload('/v2/images', new File(['hello'], 'Me.PNG'), { purpose: 'avatar' });
    const form = sent[0]?.init.body as FormData;
    expect(form.get('purpose')).toBe('avatar');
    expect((form.get('file') as File).name).toBe('LPJNul-wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ.png');
  });

  it('saves an attachment reply as a file under its own name', async () => {
    const saved: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    Object.assign(URL, { createObjectURL: () => 'blob:usage', revokeObjectURL: () => undefined });
    answer(
      new Response('time,requests\n', {
        status: 200,
        headers: {
          'content-type': 'text/csv',
          'content-disposition': `attachment; filename*=UTF-8''usage%20report.csv`,
        },
      }),
    );
    expect(await api.get('/v2/usage', { format: 'csv' })).toEqual({});
    expect(saved).toEqual([{ name: 'usage report.csv', href: 'blob:usage' }]);
    expect(document.querySelector('a[download]')).toBeNull();
    expect(useStore.getState().areas).toEqual({});
  });

  it('merges a keyed reply into the store and returns it', async () => {
    answer(json(200, { keys: [{ id: 3, name: 'CI' }] }));
    const reply = await api.get('/v2/keys');
    expect(reply).toEqual({ keys: [{ id: 3, name: 'CI' }] });
    expect(useStore.getState().areas.keys).toEqual({ 3: { id: 3, name: 'CI' } });
  });
});

describe('error replies (spec §8)', () => {
  it('401 while signed in signs the user out to /login', async () => {
    useStore.setState({ self: { ...ANONYMOUS_USER, id: 4, role: 'user', expires: Date.now() + 60_000 } });
    answer(json(401, { error: 'Session expired.' }), new Response(null, { status: 200 }));
    await expect(api.get('/v2/keys')).rejects.toBeInstanceOf(ApiError);
    expect(useStore.getState().self).toEqual(ANONYMOUS_USER);
    expect(went).toEqual(['/login']);
    await vi.waitFor(() => expect(sent[1]?.url).toBe('/auth/logout'));
  });

  it('401 while anonymous (a failed sign-in) shows the error text', async () => {
    answer(json(401, { error: 'The email or password is incorrect.', code: 'unauthorized' }));
    await expect(api.post('/auth/login', {})).rejects.toThrow('The email or password is incorrect.');
    expect(useStore.getState().alerts).toEqual([
      { type: 'error', title: 'Unauthorized', text: 'The email or password is incorrect.' },
    ]);
    expect(went).toEqual([]);
  });

  it.each([
    [451, '/terms'],
    [403, '/error/403'],
    [404, '/error/404'],
  ])('%i goes to %s', async (status, page) => {
    answer(json(status, { error: 'x' }));
    await expect(api.get('/v2/contracts/1')).rejects.toMatchObject({ status });
    expect(went).toEqual([page]);
    expect(useStore.getState().alerts).toEqual([]);
  });

  it.each([
    [json(409, { error: 'That name is taken.' }), 'Conflict Error', 'That name is taken.'],
    [new Response('', { status: 502 }), 'Error', 'Bad Gateway'],
    [new Response(null, { status: 599 }), 'Error', '599'],
    [new Response('upstream timed out', { status: 504 }), 'Error', 'upstream timed out'],
    [json(500, { error: 'Something went wrong.' }), 'Server Error', 'Something went wrong.'],
  ])('any other status raises an alert (%#)', async (response, title, text) => {
    answer(response);
    await expect(api.get('/v2/x')).rejects.toThrow(text);
    expect(useStore.getState().alerts).toEqual([{ type: 'error', title, text }]);
    expect(went).toEqual([]);
  });

  it('names the failing fields of a 400', async () => {
    const body = {
      error: 'Invalid input: body.email.',
      fields: [{ path: 'body.email', message: 'Please provide a valid email address.' }],
    };
    answer(json(400, body));
    const error = await api.post('/auth/login', {}).catch((e: ApiError) => e);
    expect(fieldErrors((error as ApiError).body)).toEqual({ email: 'Please provide a valid email address.' });
    expect(fieldErrors('plain text')).toEqual({});
  });
});

describe('errorText', () => {
  it('prefers the body error, then short text, then the standard name, then the code', () => {
    expect(errorText(409, { error: 'Taken.' })).toBe('Taken.');
    expect(errorText(500, 'Database down')).toBe('Database down');
    expect(errorText(502, null)).toBe('Bad Gateway');
    expect(errorText(599, null)).toBe('599');
  });
});
