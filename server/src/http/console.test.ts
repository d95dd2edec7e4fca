import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/harness';
import { renderIndex } from './console';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { CI_HOST: 'ci.tessera.example' } });
});
afterAll(() => t.app.close());

describe('console', () => {
  it.each(['/', '/users/12', '/templates/edit/3,4', '/no/such/page'])('answers %s with index.html', async (url) => {
    const res = await t.app.inject(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.body).toContain('src="/assets/index-abc123.js"');
    expect(res.body).toContain('href="/favicon.svg"');
  });

  it('tells the page its configuration', async () => {
    const res = await t.app.inject('/');
    const meta = /<meta name="tessera-config" content='([^']*)'>/.exec(res.body)?.[1] ?? '';
    expect(JSON.parse(meta.replace(/&quot;/g, '"'))).toEqual({ ciHost: 'ci.tessera.example', version: 'test-1' });
  });

  it('tells the version the sockets tell, once a deployment has changed it', async () => {
    const told = async () => {
      const meta = /<meta name="tessera-config" content='([^']*)'>/.exec((await t.app.inject('/')).body)?.[1] ?? '';
      return (JSON.parse(meta.replace(/&quot;/g, '"')) as { version: string }).version;
    };
    const before = t.app.hub.version;
    t.app.hub.setVersion('test-1 release 9.9.9 deployment 7');
    try {
      expect(await told()).toBe('test-1 release 9.9.9 deployment 7');
      expect((await t.app.inject('/v2/version')).json()).toEqual({ version: 'test-1 release 9.9.9 deployment 7' });
    } finally {
      t.app.hub.setVersion(before);
    }
    expect(await told()).toBe(before ?? 'test-1');
  });

  it('serves hashed assets for a year', async () => {
    const res = await t.app.inject('/assets/index-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  it('answers a missing asset with 404, not the page', async () => {
    const res = await t.app.inject('/assets/gone-123.js');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });

  it.each([
    ['/v3/identities/byId', {}],
    ['/api/v2/identities/byId', {}],
    ['/users/12', { authorization: 'Bearer abc' }],
    ['/no/such/page', { accept: 'application/json' }],
  ])('answers %s (%j) with a JSON 404, never the page', async (url, headers) => {
    const res = await t.app.inject({ url, headers });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ code: 'not_found', error: `No such endpoint: GET ${url}` });
  });

  it('still serves the API reference page at /api, and pages to a browser asking for HTML or anything', async () => {
    for (const accept of ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', '*/*']) {
      const res = await t.app.inject({ url: '/api', headers: { accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    }
  });

  it('answers a POST to a page path with 404 JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/users/12',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(res.statusCode).toBe(404);
  });

  it('serves the page for client routes with a dot, and 404 JSON for missing top-level files and assets', async () => {
    const page = await t.app.inject('/error/400/Unknown%20domain%20acme.com');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const url of ['/favicon.ico', '/assets/gone-123.js'])
      expect((await t.app.inject(url)).statusCode, url).toBe(404);
  });

  it('sends a hashed asset compressed when the browser accepts it', async () => {
    const res = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe('console.log("console")');
    const plain = await t.app.inject('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("console")');
  });

  it('answers a malformed URL with the usual error body', async () => {
    const res = await t.app.inject('/error/500/%E0%A4%A');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'bad_request', error: 'The request URL is malformed.' });
    expect(res.json().requestId).toBeTruthy();
  });

  it('refuses a cross-site POST whatever its path looks like, encoded or not', async () => {
    for (const url of ['/users/12', '/%61uth/login', '/auth/login']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        payload: { email: 'a@b.test', password: 'x' },
      });
      expect(res.statusCode, url).toBe(403);
      expect(res.cookies, url).toHaveLength(0);
    }
  });

  it('points assets at CDN_HOST when set', async () => {
    const cdn = await buildTestApp({ env: { CDN_HOST: 'cdn.tessera.example' } });
    const res = await cdn.app.inject('/login');
    expect(res.body).toContain('src="https://cdn.tessera.example/assets/index-abc123.js"');
    expect(res.headers['content-security-policy']).toContain("script-src 'self' https://cdn.tessera.example");
    await cdn.app.close();
  });

  it('escapes the configuration so it cannot break out of the attribute', () => {
    const html = renderIndex('<head></head>', {
      staticDir: '',
      assetPrefix: '',
      ciHost: "x'><script>alert(1)</script>",
      version: '1',
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain('x&#39;>&lt;script>');
  });

  it('says how to build when there is no build', async () => {
    const bare = await buildTestApp({ env: { STATIC_DIR: '/nonexistent/tessera-web' } });
    const res = await bare.app.inject('/');
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
    await bare.app.close();
  });
});
