/**
 * Issue 31 item 10: a path that exists under other methods answers 405 with Allow (the methods registered for it,
 * HEAD with GET) and the project's error body; a path that does not exist stays 404; a page stays a page; the
 * lookups keep their own answer. And a body over the limit is a 413 that names the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, CONSOLE_HEADERS, makeCustomer, signIn, type TestApp } from '../test/harness';
import { methodNotAllowed } from './console';
import { bodyTooLarge } from './error-handler';
import { patternOf } from './methods';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signIn(t.app, (await makeCustomer(t.database)).email);
});
afterAll(() => t.app.close());

const inject = (method: string, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: method as 'GET', url, headers });

describe('405 with Allow', () => {
  it.each([
    ['DELETE', '/v2/openapi.json', 'GET, HEAD'],
    ['POST', '/v2/openapi.json', 'GET, HEAD'],
    ['PATCH', '/v2/keys', 'GET, HEAD, POST'],
    ['POST', '/v2/keys/abcdefghijklmnop', 'GET, HEAD, PUT, DELETE'],
    ['GET', '/v2/keys/abcdefghijklmnop/rotate', 'POST'],
    ['OPTIONS', '/v2/templates/7', 'GET, HEAD, PUT, DELETE'],
    ['PUT', '/livez', 'GET, HEAD'],
  ])('%s %s: 405, Allow: %s, the usual error body', async (method, url, allow) => {
    const res = await inject(method, url, { ...CONSOLE_HEADERS, cookie });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const pathname = url.split('?')[0]!;
    expect(res.json()).toEqual({
      error: methodNotAllowed(method, pathname, allow.split(', ')),
      code: 'method_not_allowed',
      requestId: res.headers['x-request-id'],
    });
  });

  it('answers HEAD where GET is registered, and 405 with Allow to a HEAD where it is not', async () => {
    expect((await inject('HEAD', '/v2/openapi.json')).statusCode).toBe(200);
    const res = await inject('HEAD', '/v2/keys/abcdefghijklmnop/rotate');
    expect([res.statusCode, res.headers.allow]).toEqual([405, 'POST']);
  });

  it('answers 405 to any caller: the methods of a path are no secret (a console call still needs its header)', async () => {
    const res = await inject('PATCH', '/v2/keys', { authorization: 'Bearer not-a-key' });
    expect([res.statusCode, res.headers.allow]).toEqual([405, 'GET, HEAD, POST']);
  });

  it('leaves unknown paths 404 and pages to the console', async () => {
    const missing = await inject('DELETE', '/v2/no-such-thing', CONSOLE_HEADERS);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.allow).toBeUndefined();
    expect(missing.json().code).toBe('not_found');
    const tooDeep = await inject('POST', '/v2/keys/abcdefghijklmnop/rotate/again', CONSOLE_HEADERS);
    expect(tooDeep.statusCode).toBe(404);
    const page = await inject('GET', '/keys', { accept: 'text/html' });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers.allow).toBeUndefined();
  });

  it('keeps the lookups’ own answer (they run nothing, and take OPTIONS)', async () => {
    const res = await inject('DELETE', '/v2/identities/byEmail');
    expect([res.statusCode, res.headers.allow]).toEqual([405, 'GET, POST, PUT, OPTIONS']);
    const options = await inject('OPTIONS', '/v1/identities/byEmail');
    expect([options.statusCode, options.headers.allow]).toEqual([204, 'GET, POST, PUT, OPTIONS']);
  });
});

describe('patternOf: route URLs as the router reads them', () => {
  it.each([
    ['/v2/keys/:id', '/v2/keys/abc', true],
    ['/v2/keys/:id', '/v2/keys/abc/rotate', false],
    ['/v2/keys/:id', '/v2/keys/', false],
    ['/oauth/:provider/callback', '/oauth/github/callback', true],
    ['/files/*', '/files/a/b.txt', true],
    ['/v2/usage/calls.csv', '/v2/usage/callsXcsv', false],
    ['/v2/things/:id(^\\d+$)', '/v2/things/12', true],
    ['/time/:hour-:minute', '/time/10-30', true],
  ])('%s against %s: %s', (url, path, matches) => {
    expect(patternOf(url).test(path)).toBe(matches);
  });
});

describe('413 names the limit', () => {
  it('says the limit of the route, in MB and bytes, counted after decompression', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/keys',
      headers: { ...CONSOLE_HEADERS, cookie },
      payload: JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      error: 'The request body is over the limit of 10 MB (10,485,760 bytes, counted after decompression).',
      code: 'payload_too_large',
      requestId: res.headers['x-request-id'],
    });
    expect(bodyTooLarge(512 * 1024)).toContain('512 KB (524,288 bytes');
  });
});
