import { scratchDatabase } from '@tessera/server/test/databases';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptTermsAsRoot, launch, newPage, signInAsRoot } from './support/browser';
import { holdPort, type RunningServer, startServer } from './support/server';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const OFFLINE = 'The server is currently unreachable.';

describe('connection (spec §4)', () => {
  it('warns when the server is unreachable and clears the warning when it is back', async () => {
    let server: RunningServer = await startServer();
    await acceptTermsAsRoot(server.url);
    const { context, page } = await newPage(browser);
    await signInAsRoot(page, server.url);
    await page.goto(`${server.url}/usage`);
    await page.getByTestId('nav-drawer').waitFor();
    // The page's own module must be in: a guarded module that fails to load sends the browser to /login (spec §2
    // route-load failure), which a loaded machine showed when the server stopped before the chunk arrived.
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    expect(await page.getByText(OFFLINE).count()).toBe(0);

    await server.stop();
    const held = await holdPort(server.port);
    await page.getByTestId('offline-indicator').waitFor({ timeout: 30_000 });
    await page.getByText(OFFLINE).waitFor();

    await held.release();
    server = await startServer({ port: server.port, dataDir: server.env.DATA_DIR });
    await page.getByTestId('offline-indicator').waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.getByText(OFFLINE).count()).toBe(0);
    await context.close();
    await server.stop();
  }, 180_000); // two server starts and a stop, each slow on a loaded two-core machine: an allowance, not a speed check

  it('reloads the page when the server version changes, not before', async () => {
    let server = await startServer({ env: { TESSERA_VERSION: 'v-one' } });
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/faq`);
    await expect.poll(() => page.title()).toBe('Tessera - Frequently Asked Questions');
    // Its module loaded (a public module that fails to load reloads the page, spec §2).
    await page.getByRole('heading', { name: 'Frequently Asked Questions', level: 1 }).waitFor();
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'same document';
    });

    // The same version after a restart: the page stays.
    await server.stop();
    server = await startServer({ port: server.port, dataDir: server.env.DATA_DIR, env: { TESSERA_VERSION: 'v-one' } });
    await page.getByTestId('offline-indicator').waitFor({ state: 'detached', timeout: 15_000 });
    await page.waitForTimeout(1500); // let the socket reconnect and hear the version
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same document');

    // A new version: the page reloads itself.
    await server.stop();
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    server = await startServer({ port: server.port, dataDir: server.env.DATA_DIR, env: { TESSERA_VERSION: 'v-two' } });
    await reloaded;
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBeUndefined();
    await context.close();
    await server.stop();
  }, 180_000); // three server starts, each up to a minute on a loaded two-core machine: an allowance, not a speed check
});

describe.skipIf(!process.env.TEST_DATABASE_URL || !process.env.REDIS_URL)('two server processes', () => {
  it('a sign-out made on one process reaches a browser connected to the other', async () => {
    const database = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'e2e');
    const shared = { DATABASE_URL: database.url, REDIS_URL: process.env.REDIS_URL! };
    const a = await startServer({ env: shared });
    const b = await startServer({ env: shared });
    await acceptTermsAsRoot(a.url);
    const { context, page } = await newPage(browser);
    await signInAsRoot(page, b.url);
    await page.goto(`${b.url}/usage`);
    await page.getByTestId('nav-drawer').waitFor();
    await page.waitForTimeout(500); // the socket subscribes once the page knows its user

    // Sign the same session out through process A, as another tab of this browser could.
    const cookies = await context.cookies(b.url);
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const res = await fetch(`${a.url}/auth/logout`, { method: 'PUT', headers: { cookie, 'x-requested-with': 'e2e' } });
    expect(res.status).toBe(200);

    await page.getByTestId('alert-stack').getByText('Signed Out').waitFor({ timeout: 15_000 });
    await page.getByText('Your session has ended.').waitFor();
    await page.waitForURL((url) => url.pathname === '/login');
    await context.close();
    await Promise.all([a.stop(), b.stop()]);
    await database.drop();
  });
});
