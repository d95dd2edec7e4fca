/**
 * Failed loads (issue 32 item 6) in Chromium against the real server, made to refuse for real: the browser is given
 * cookies larger than the server reads (Node's 16 KB header limit), so every call of the page answers 431 until
 * they are gone, with no mock anywhere. A list shows the error and a Retry in place of its rows, never its empty
 * sentence; Usage shows them in place of the chart; Billing in place of its tables; and the alert the failure raised
 * goes when the retry succeeds. Each state is checked with axe-core in light and dark, wide and narrow.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { usePages } from './support/pages';
import { NARROW, STATE_VIEWS, settle, viewName, viewOptions, WIDE } from './support/state-checks';

const env = useServerAndBrowser();
const openAs = usePages(env);
const SHOTS = '/tmp/shots-error-states';
mkdirSync(SHOTS, { recursive: true });

/** Cookies past the server's header limit: every request from now on is refused with 431. */
async function refuseCalls(page: Page): Promise<void> {
  const url = env.server.url;
  await page
    .context()
    .addCookies(Array.from({ length: 5 }, (_, i) => ({ name: `pad${i}`, value: 'x'.repeat(4000), url })));
}

async function allowCalls(page: Page): Promise<void> {
  await page.context().clearCookies({ name: /^pad\d$/ });
}

/** Follows the drawer's link, opening the drawer first where it is folded away. */
async function openFromDrawer(page: Page, name: string): Promise<void> {
  const link = page.getByTestId('nav-drawer').getByRole('link', { name }).first();
  if (!(await link.isVisible())) await page.getByTestId('nav-menu-button').click();
  await link.click();
}
const alertTitles = (page: Page) => page.getByTestId('alert-stack').getByRole('alert').allTextContents();

async function checked(page: Page, name: string): Promise<string[]> {
  await settle(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  return [...(await axeViolations(page)), ...(await sidewaysScroll(page))];
}

describe('a failed load shows its error with a Retry (issue 32 item 6)', () => {
  for (const view of STATE_VIEWS) {
    it(`the templates list, ${viewName(view)}`, async () => {
      const page = await openAs('root', viewOptions(view));
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${env.server.url}/templates`);
      await page.getByRole('table', { name: 'Templates' }).waitFor();
      // The pages' code is loaded now; only their calls will be refused.
      await page.goto(`${env.server.url}/usage`);
      await page.getByTestId('page-title').filter({ hasText: 'Usage' }).waitFor();
      await refuseCalls(page);
      await openFromDrawer(page, 'Templates');
      const failure = page.getByTestId('load-error');
      await failure.waitFor();
      expect(await failure.textContent()).toContain('The templates could not be loaded.');
      expect(await failure.textContent()).toContain("The request's headers are too large");
      expect(await page.getByText('No templates.').count()).toBe(0);
      expect(await checked(page, `templates-${view.theme}-${view.width}`)).toEqual([]);

      await allowCalls(page);
      await failure.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(() => failure.count()).toBe(0);
      await page.getByText('No templates.').or(page.getByTestId('template-row').first()).waitFor();
      expect(errors).toEqual([]);
    });
  }

  it('the Usage page shows the error and a Retry in place of the chart', async () => {
    for (const view of [STATE_VIEWS[0]!, { theme: 'dark' as const, width: NARROW }]) {
      const page = await openAs('root', viewOptions(view));
      await page.goto(`${env.server.url}/usage`);
      await page.getByTestId('usage-chart').waitFor();
      await refuseCalls(page);
      await page.getByRole('button', { name: 'Calls', exact: true }).click();
      await page.getByRole('button', { name: 'Chart', exact: true }).click();
      const failure = page.getByTestId('load-error');
      await failure.waitFor();
      expect(await failure.textContent()).toContain('The usage could not be loaded.');
      expect(await page.getByTestId('usage-chart').count()).toBe(0);
      expect(await checked(page, `usage-${view.theme}-${view.width}`)).toEqual([]);
      await allowCalls(page);
      await failure.getByRole('button', { name: 'Retry' }).click();
      await page.getByTestId('usage-chart').waitFor();
      expect(await failure.count()).toBe(0);
    }
  });

  it("Billing's alert for a failed listing goes when the retry succeeds", async () => {
    for (const view of [
      { theme: 'light' as const, width: WIDE },
      { theme: 'dark' as const, width: NARROW },
    ]) {
      const page = await openAs('root', viewOptions(view));
      await page.goto(`${env.server.url}/billing`);
      await page.getByRole('table', { name: 'Invoices' }).waitFor();
      await refuseCalls(page);
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Paid' }).click();
      const failure = page.getByTestId('load-error');
      await failure.waitFor();
      expect(await failure.textContent()).toContain('The invoices could not be loaded.');
      expect(await page.getByRole('table', { name: 'Invoices' }).count()).toBe(0);
      await expect
        .poll(() => alertTitles(page))
        .toEqual([expect.stringContaining("The request's headers are too large")]);
      expect(await checked(page, `billing-${view.theme}-${view.width}`)).toEqual([]);

      await allowCalls(page);
      await failure.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('table', { name: 'Invoices' }).waitFor();
      await expect.poll(() => alertTitles(page)).toEqual([]);
    }
  });

  it('Segments’ suppressions show the error, not "No suppressions found.", and SSH its error, not empty sections', async () => {
    for (const view of [
      { theme: 'light' as const, width: WIDE },
      { theme: 'dark' as const, width: NARROW },
    ]) {
      const page = await openAs('root', viewOptions(view));
      await page.goto(`${env.server.url}/segments`);
      await page.getByRole('tab', { name: 'Suppressions' }).click();
      await page
        .getByText(/No suppressions found\.|Newest/)
        .first()
        .waitFor();
      await refuseCalls(page);
      await page.getByRole('search', { name: 'Suppressions' }).getByRole('button', { name: 'Search' }).click();
      const failure = page.getByTestId('load-error');
      await failure.waitFor();
      expect(await failure.textContent()).toContain('The suppressions could not be loaded.');
      expect(await page.getByText('No suppressions found.').count()).toBe(0);
      expect(await checked(page, `suppressions-${view.theme}-${view.width}`)).toEqual([]);
      await allowCalls(page);
      await failure.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(() => failure.count()).toBe(0);

      // SSH: its code loaded first, then opened again in-app with every call refused.
      await page.goto(`${env.server.url}/ssh`);
      await page.getByTestId('page-title').filter({ hasText: 'SSH' }).waitFor();
      await page.getByText('No keys yet.').waitFor();
      await openFromDrawer(page, 'Usage');
      await page.getByTestId('page-title').filter({ hasText: 'Usage' }).waitFor();
      await refuseCalls(page);
      await page.goBack();
      await failure.waitFor();
      expect(await failure.textContent()).toContain('SSH access could not be loaded.');
      expect(await page.getByText('No keys yet.').count()).toBe(0);
      expect(await checked(page, `ssh-${view.theme}-${view.width}`)).toEqual([]);
      await allowCalls(page);
      await failure.getByRole('button', { name: 'Retry' }).click();
      await page.getByText('No keys yet.').waitFor();
    }
  });
});
