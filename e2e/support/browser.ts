/** Debian Chromium driven by playwright-core; the flags are the ones that work as root on these machines. */
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type Account, ROOT, type RunningServer, type ServerOptions, startServer } from './server';

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

/**
 * A Chromium profile kept in `userDataDir`: close it and launch again with the same folder to model the
 * person quitting and reopening their browser.
 */
export function launchPersistent(userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: chromePath(),
    headless: true,
    args: CHROME_FLAGS,
    viewport: { width: 1280, height: 800 },
  });
}

/** Signs in through the real sign-in endpoint from inside the page, so the browser holds the cookies. */
export async function signIn(page: Page, baseUrl: string, account: Account): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  const { status } = await callApi(page, 'POST', '/auth/login', account);
  if (status !== 200) throw new Error(`sign-in of ${account.email} failed with ${status}`);
}

export function signInAsRoot(page: Page, baseUrl: string): Promise<void> {
  return signIn(page, baseUrl, ROOT);
}

/** Signs in by filling the form on /login, as a person does; stays wherever the console then goes. */
export async function signInWithForm(
  page: Page,
  baseUrl: string,
  account: Account,
  options: { remember?: boolean } = {},
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Remember me').setChecked(options.remember ?? false);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/**
 * Calls the server from inside the page, with the browser's own cookies, as the console's client does (JSON,
 * and the X-Requested-With header every state-changing console call carries).
 */
export function callApi(page: Page, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: {
          accept: 'application/json',
          'x-requested-with': 'XMLHttpRequest',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {}
      return { status: res.status, body: parsed };
    },
    { method, path, body },
  );
}

/** The Cookie header this browser context would send to `baseUrl`. */
export async function cookieHeader(context: BrowserContext, baseUrl: string): Promise<string> {
  return (await context.cookies(baseUrl)).map((c) => `${c.name}=${c.value}`).join('; ');
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
 * One server and one browser for a spec file, started together and stopped after its last test. Root and the
 * seeded users (`users`) have accepted the agreement unless `acceptTerms` is false (the agreement gate's own
 * tests) or the user is seeded as a `signer`.
 */
export function useServerAndBrowser(options?: ServerOptions & { acceptTerms?: boolean }): {
  server: RunningServer;
  browser: Browser;
} {
  return useStarted(async () => ({ server: await startServer(options) }), {
    acceptTerms: options?.acceptTerms !== false,
  });
}

/**
 * One server (with whatever `start` runs beside it: a mailbox, a provider) and one browser for a spec file,
 * started together and stopped after its last test. Root and the seeded users but signers accept the agreement
 * unless `acceptTerms` is false; `close` stops what ran beside the server.
 */
export function useStarted<T extends { server: RunningServer }>(
  start: () => Promise<T>,
  options: { acceptTerms?: boolean; close?: (started: T) => Promise<void> } = {},
): T & { browser: Browser } {
  const shared = {} as T & { browser: Browser };
  let started: T | undefined;
  beforeAll(async () => {
    const [value, browser] = await Promise.all([start(), launch()]);
    started = value;
    Object.assign(shared, value, { browser });
    if (options.acceptTerms === false) return;
    for (const account of [ROOT, ...shared.server.users.filter((u) => !u.signer)]) {
      await acceptTerms(shared.server.url, account);
    }
  });
  afterAll(async () => {
    await shared.browser?.close();
    await shared.server?.stop();
    if (started) await options.close?.(started);
  });
  return shared;
}

/** Signs root in over HTTP and accepts the current agreement, as root would on the Terms page. */
export function acceptTermsAsRoot(baseUrl: string): Promise<void> {
  return acceptTerms(baseUrl, ROOT);
}

/** Signs `account` in over HTTP and accepts the current agreement, as they would on the Terms page. */
export async function acceptTerms(baseUrl: string, account: Account): Promise<void> {
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'e2e' };
  const login = await fetch(`${baseUrl}/auth/login`, { method: 'POST', headers, body: JSON.stringify(account) });
  if (!login.ok) throw new Error(`sign-in of ${account.email} failed with ${login.status}`);
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
