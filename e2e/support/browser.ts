/** Debian Chromium driven by playwright-core; the flags are the ones that work as root on these machines. */
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ROOT, type RunningServer, type ServerOptions, startServer } from './server';

export const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromePath(): string {
  const path = process.env.CHROME_PATH;
  if (!path) throw new Error('CHROME_PATH is not set; run the browser tests through `npm test`.');
  return path;
}

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: chromePath(), headless: true, args: CHROME_FLAGS });
}

/** Signs in through the real sign-in endpoint from inside the page, so the browser holds the cookies. */
export async function signInAsRoot(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  const status = await page.evaluate(async (credentials) => {
    const res = await fetch('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify(credentials),
    });
    return res.status;
  }, ROOT);
  if (status !== 200) throw new Error(`sign-in failed with ${status}`);
}

export async function newPage(
  browser: Browser,
  width = 1280,
  height = 800,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  return { context, page };
}

/**
 * One server and one browser for a spec file, started together and stopped after its last test. Root has
 * accepted the agreement unless `acceptTerms` is false (the agreement gate's own tests).
 */
export function useServerAndBrowser(options?: ServerOptions & { acceptTerms?: boolean }): {
  server: RunningServer;
  browser: Browser;
} {
  const shared = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [shared.server, shared.browser] = await Promise.all([startServer(options), launch()]);
    if (options?.acceptTerms !== false) await acceptTermsAsRoot(shared.server.url);
  });
  afterAll(async () => {
    await shared.browser?.close();
    await shared.server?.stop();
  });
  return shared;
}

/** Signs root in over HTTP and accepts the current agreement, as root would on the Terms page. */
export async function acceptTermsAsRoot(baseUrl: string): Promise<void> {
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'e2e' };
  const login = await fetch(`${baseUrl}/auth/login`, { method: 'POST', headers, body: JSON.stringify(ROOT) });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const terms = (await (await fetch(`${baseUrl}/v2/terms`, { headers: { ...headers, cookie } })).json()) as {
    ndaId: number;
  };
  const accepted = await fetch(`${baseUrl}/v2/terms/accept`, {
    method: 'POST',
    headers: { ...headers, cookie },
    body: JSON.stringify({ ndaId: terms.ndaId }),
  });
  if (!accepted.ok) throw new Error(`accepting the agreement failed with ${accepted.status}`);
}
