/**
 * What every page of the route table must be, checked on each of them (e2e/support/every-page.ts walks
 * common/src/routes.ts, so a page added later is held to it too): no WCAG 2.1 A or AA violation by axe-core, in
 * the light and the dark theme; no sideways scroll at 1280, 900 and 600 px (the full drawer, the rail and the
 * icon-only drawer); and text shown as written, never transformed into capitals.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsRoot, useServerAndBrowser } from './support/browser';
import { EVERY_PAGE } from './support/every-page';
import {
  axeViolations,
  openSettled,
  sidewaysScroll,
  stillPages,
  trackRequests,
  transformedText,
} from './support/page-checks';

const env = useServerAndBrowser();

const VIEWS = [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 900 },
  { theme: 'light', width: 600 },
] as const;

/**
 * Wide, /api renders every operation of the published document at once (RapiDoc's "read" layout): axe-core took
 * 28 s over it on an idle machine here and passed 60 s on CI's loaded one. Every page gets the time /api needs, as
 * e2e/api-reference.spec.ts gives it; a page that hangs still fails, later.
 */
const PAGE_TIMEOUT = 180_000;

interface Visitor {
  context: BrowserContext;
  page: Page;
  pending: () => number;
}

describe.each(VIEWS)('every page in the $theme theme at $width px', ({ theme, width }) => {
  const visitors = {} as Record<'anonymous' | 'root', Visitor>;

  beforeAll(async () => {
    for (const who of ['anonymous', 'root'] as const) {
      const context = await env.browser.newContext({
        viewport: { width, height: 800 },
        colorScheme: theme,
        // The console's Content-Security-Policy would refuse the injected axe-core script.
        bypassCSP: true,
      });
      await stillPages(context);
      const page = await context.newPage();
      if (who === 'root') await signInAsRoot(page, env.server.url);
      visitors[who] = { context, page, pending: trackRequests(page) };
    }
  });

  afterAll(async () => {
    for (const visitor of Object.values(visitors)) await visitor.context.close();
  });

  it.each(EVERY_PAGE)(
    '$path (signed in: $signedIn) passes WCAG 2.1 AA, fits the window and shows text as written',
    async ({ path, signedIn }) => {
      const { page, pending } = visitors[signedIn ? 'root' : 'anonymous'];
      await openSettled(page, `${env.server.url}${path}`, pending);
      const problems = [
        ...(await axeViolations(page)),
        ...(await sidewaysScroll(page)),
        ...(await transformedText(page)),
      ];
      expect(problems, `${path} in the ${theme} theme at ${width} px`).toEqual([]);
    },
    PAGE_TIMEOUT,
  );
});
