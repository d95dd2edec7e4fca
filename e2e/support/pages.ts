/**
 * A spec's signed-in pages: each in a browser context of its own (a viewport and colour scheme of its own, the
 * console's Content-Security-Policy bypassed so axe-core can be injected), watched for page errors, signed in as
 * root or a given account (or not at all), and every context closed after the spec's last test.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll } from 'vitest';
import { signIn, signInAsRoot } from './browser';
import { stillPages } from './page-checks';
import type { Account, RunningServer } from './server';

export interface PageOptions {
  colorScheme?: 'light' | 'dark';
  width?: number;
  height?: number;
}

/** Who the page is signed in as: root, an account, or nobody. */
export type PageUser = 'root' | Account | null;

export function usePages(env: {
  server: RunningServer;
  browser: { newContext: (options: object) => Promise<BrowserContext> };
}) {
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });
  /** A new page signed in as `user` (root unless said otherwise). */
  return async function openAs(user: PageUser = 'root', options: PageOptions = {}): Promise<Page> {
    const context = await env.browser.newContext({
      viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
      colorScheme: options.colorScheme ?? 'light',
      // The console's Content-Security-Policy would refuse the injected axe-core script.
      bypassCSP: true,
    });
    contexts.push(context);
    await stillPages(context);
    const page = await context.newPage();
    if (user === 'root') await signInAsRoot(page, env.server.url);
    else if (user) await signIn(page, env.server.url, user);
    return page;
  };
}
