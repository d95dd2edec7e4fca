import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client';
import { buildTestApp, CONSOLE_HEADERS, type TestApp } from './test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

describe('system endpoints', () => {
  it('GET /healthz checks the database', async () => {
    const res = await t.app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: t.database.engine });
  });

  it('GET /healthz answers 503 when the database is gone', async () => {
    const database = await openDatabase({ dataDir: null });
    const broken = await buildTestApp({ database });
    await database.close();
    const res = await broken.app.inject('/healthz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'unavailable', error: 'The database is unreachable.' });
    await broken.app.close();
  });

  it('GET /v2/version tells the server version', async () => {
    const res = await t.app.inject('/v2/version');
    expect(res.json()).toEqual({ version: 'test-1' });
  });

  it('every reply carries its request id', async () => {
    const res = await t.app.inject('/v2/nothing-here');
    expect(res.headers['x-request-id']).toBe(res.json().requestId);
  });
});

describe('unknown API paths', () => {
  it.each([
    ['GET', '/v2/nothing-here'],
    ['GET', '/auth/nothing-here'],
    ['GET', '/v1/identities/byNothing'],
    ['GET', '/oauth/nowhere/else'],
    ['DELETE', '/v2/nothing-here'],
  ])('%s %s answers 404 JSON, never the page', async (method, url) => {
    const res = await t.app.inject({ method: method as 'GET', url, headers: CONSOLE_HEADERS });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ code: 'not_found', error: expect.stringContaining(url) });
  });
});

describe('cross-site request defence', () => {
  it('refuses a state-changing console call without X-Requested-With', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/auth/logout' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/X-Requested-With/);
  });

  it('refuses a foreign Origin', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/auth/logout',
      headers: { ...CONSOLE_HEADERS, origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Cross-site request refused.');
  });

  it('accepts our origin, and other loopback names for a loopback PUBLIC_URL', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000']) {
      const res = await t.app.inject({ method: 'PUT', url: '/auth/logout', headers: { ...CONSOLE_HEADERS, origin } });
      expect(res.statusCode).toBe(200);
    }
    const otherPort = await t.app.inject({
      method: 'PUT',
      url: '/auth/logout',
      headers: { ...CONSOLE_HEADERS, origin: 'http://localhost:4000' },
    });
    expect(otherPort.statusCode).toBe(403);
  });

  it('lets calls with an Authorization header through to their own checks', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v2/nothing-here', headers: { authorization: 'Bearer x' } });
    expect(res.statusCode).toBe(404);
  });
});
