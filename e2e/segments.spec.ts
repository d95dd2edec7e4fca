/**
 * Segments (issue 19) in Chromium against the real server with a seeded graph: a system administrator builds a
 * segment, sees its size follow the filters, previews, saves and exports it (the file is read), and the page passes
 * WCAG 2.1 AA in both themes, wide and narrow.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';

const env = useServerAndBrowser({ env: { SEED_IDENTITIES: '300' } });
const openAs = usePages(env);
const rootPage = (options: PageOptions = {}) => openAs('root', options);

const size = (page: Page) => page.getByTestId('segment-size').textContent();
const people = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'person' : 'people'}`;

async function count(page: Page, filters: Record<string, unknown>): Promise<number> {
  const res = await callApi(page, 'POST', '/v2/segments/count', { filters });
  expect(res.status).toBe(200);
  return (res.body as { count: number }).count;
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('segments (issue 19)', () => {
  it('builds a segment, follows its size, previews, saves and exports it', async () => {
    const page = await rootPage();
    const everyone = await count(page, {});
    expect(everyone).toBeGreaterThan(0);
    await page.goto(`${env.server.url}/segments`);
    await page.getByRole('tab', { name: 'Segments', selected: true }).waitFor();
    await expect.poll(() => size(page)).toBe(people(everyone));

    await choose(page, 'Has e-mail', 'Yes');
    const emailed = await count(page, { hasEmail: true });
    await expect.poll(() => size(page)).toBe(people(emailed));
    await choose(page, 'Gender', 'Female');
    await page.keyboard.press('Escape');
    const filters = { hasEmail: true, genders: ['F'] };
    const women = await count(page, filters);
    expect(women).toBeGreaterThan(0);
    expect(women).toBeLessThan(everyone);
    await expect.poll(() => size(page)).toBe(people(women));

    // A bad filter is named under its field, and no size is asked for.
    await page.getByLabel('Age from').fill('200');
    await page.getByText('Please provide an integer from 0 to 120.').waitFor();
    await expect.poll(() => size(page)).toBe('Fix the filters to see the size.');
    await page.getByLabel('Age from').fill('');
    await expect.poll(() => size(page)).toBe(people(women));

    await page.getByRole('button', { name: 'Preview 20 members' }).click();
    const rows = page.getByTestId('segment-preview').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(Math.min(20, women));

    await page.getByRole('textbox', { name: /^Name/ }).fill('Women with an e-mail');
    await page.getByRole('button', { name: 'Save segment' }).click();
    await page.getByText('Saved Women with an e-mail.').waitFor();
    await page.getByRole('cell', { name: 'Women with an e-mail', exact: true }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^segment-\d+\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]!.split(',')).toContain('emails.address');
    expect(lines).toHaveLength(women + 1);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide`, async () => {
        const page = await rootPage({ colorScheme, width });
        await page.goto(`${env.server.url}/segments`);
        await page.getByRole('tab', { name: 'Segments' }).waitFor();
        await choose(page, 'Home owner', 'Yes');
        await expect.poll(() => size(page)).toMatch(/people|person/);
        await page.getByRole('button', { name: 'Preview 20 members' }).click();
        await page.getByTestId('segment-preview').or(page.getByText('Nobody matches these filters.')).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toEqual([]);
        const dir = process.env.SCREENSHOT_DIR;
        if (dir) await page.screenshot({ path: `${dir}/segments-${colorScheme}-${width}.png`, fullPage: true });
      });
    }
  }
});
