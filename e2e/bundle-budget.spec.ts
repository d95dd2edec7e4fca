/**
 * The console's JavaScript budget (issue 15): what the browser loads for /login stays at most 200 KB gzip, and the
 * template editor (CodeMirror) is fetched only by the template pages, in a chunk of its own. Sizes are the gzip
 * sizes of the built files the page really requested, whatever encoding the server chose to send.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInAsRoot, useServerAndBrowser } from './support/browser';

const env = useServerAndBrowser();
const DIST = path.resolve(import.meta.dirname, '../web/dist');
const LOGIN_BUDGET_BYTES = 200 * 1024;

/** The scripts a page requests while `visit` runs, by file name under web/dist/assets. */
async function scriptsOf(page: Page, visit: () => Promise<void>): Promise<string[]> {
  const seen = new Set<string>();
  const onResponse = (res: { url(): string }) => {
    const url = new URL(res.url());
    if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) seen.add(path.basename(url.pathname));
  };
  page.on('response', onResponse);
  await visit();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  return [...seen].sort();
}

const gzipSize = (file: string) => gzipSync(readFileSync(path.join(DIST, 'assets', file)), { level: 9 }).length;
const total = (files: string[]) => files.reduce((sum, f) => sum + gzipSize(f), 0);

describe('JavaScript budget (issue 15)', () => {
  it('loads at most 200 KB gzip for /login, without the editor', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const files = await scriptsOf(page, async () => {
      await page.goto(`${env.server.url}/login`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
    });
    const bytes = total(files);
    console.log(`/login initial JavaScript: ${files.length} files, ${(bytes / 1024).toFixed(1)} KB gzip`);
    expect(files.length).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
    expect(files.filter((f) => f.startsWith('template-code'))).toEqual([]);
    await context.close();
  });

  it('fetches the editor chunk only on the template pages', async () => {
    const context = await env.browser.newContext();
    const signedIn = await context.newPage();
    await signInAsRoot(signedIn, env.server.url);
    const home = await scriptsOf(signedIn, async () => {
      await signedIn.goto(`${env.server.url}/`);
      await signedIn.getByRole('heading', { level: 1 }).waitFor();
    });
    expect(home.filter((f) => f.startsWith('template-code'))).toEqual([]);
    // A fresh tab opened straight at the editor: everything it needs, from the first script on.
    const page = await context.newPage();
    const add = await scriptsOf(page, async () => {
      await page.goto(`${env.server.url}/templates/add`);
      await page.locator('.cm-content').waitFor();
    });
    const editor = add.filter((f) => f.startsWith('template-code'));
    expect(editor).toHaveLength(1);
    console.log(
      `/templates/add JavaScript: ${add.length} files, ${(total(add) / 1024).toFixed(1)} KB gzip, of which the ` +
        `editor chunk ${(gzipSize(editor[0]!) / 1024).toFixed(1)} KB`,
    );
    await context.close();
  });
});
