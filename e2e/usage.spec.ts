/**
 * Usage in the console (issue 16) in Chromium against the real server: the page opens at the spec's defaults,
 * shows the calls made with a key, follows metric, method and widget changes in the query string, exports the
 * calls as a CSV file, shows a call made while it is open, and passes WCAG 2.1 AA in both themes, wide and narrow.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';

const env = useServerAndBrowser();
const openAs = usePages(env);

const rootPage = (options: PageOptions = {}) => openAs('root', options);

let key = '';
async function lookup(): Promise<void> {
  const res = await fetch(`${env.server.url}/v2/identities/byEmail?email=someone@example.com`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
}

const total = (page: Page, label: string) => page.getByTestId(`total-${label}`);
const query = (page: Page) => new URL(page.url()).searchParams;

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Picks from an Autocomplete by typing part of the option's text. */
async function chooseFrom(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).fill(option.slice(0, 6));
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('usage (issue 16)', () => {
  it('opens at the defaults, follows the filters in the URL, lists, exports and updates live', async () => {
    const page = await rootPage();
    const made = await callApi(page, 'POST', '/v2/keys', { name: 'usage e2e' });
    expect(made.status).toBe(201);
    const item = Object.values((made.body as { keys: Record<string, { id: string; secret: string }> }).keys)[0]!;
    key = `${item.id}${item.secret}`;
    for (let i = 0; i < 3; i++) await lookup();

    await page.goto(`${env.server.url}/usage`);
    await page.getByTestId('usage-chart').waitFor();
    // Spec §2: widget chart, range month, interval day, metric requests; filters who, method and path.
    await expect.poll(() => page.getByRole('combobox', { name: 'Range' }).textContent()).toBe('Last month');
    expect(await page.getByRole('combobox', { name: 'Interval' }).textContent()).toBe('Day');
    expect(await page.getByRole('combobox', { name: 'Metric' }).textContent()).toBe('Requests');
    expect(await page.getByRole('combobox', { name: 'Who' }).inputValue()).toBe('Everyone');
    expect(await page.getByRole('combobox', { name: 'Method' }).textContent()).toBe('Any method');
    expect(await page.getByRole('combobox', { name: 'Path' }).textContent()).toBe('Any path');
    expect(await page.getByRole('button', { name: 'Chart', pressed: true }).count()).toBe(1);
    await expect.poll(() => total(page, 'Requests').textContent()).toBe('3');

    await choose(page, 'Metric', 'Identities returned');
    await page.waitForURL(/metric=identities/);
    await choose(page, 'Method', 'POST');
    await page.waitForURL(/method=POST/);
    await expect.poll(() => total(page, 'Requests').textContent()).toBe('0');
    await page.getByTestId('usage-empty').getByRole('link', { name: 'playground' }).waitFor();
    await choose(page, 'Method', 'GET');
    await choose(page, 'Path', '/byEmail');
    await expect.poll(() => total(page, 'Requests').textContent()).toBe('3');
    expect(Object.fromEntries(query(page))).toEqual({ metric: 'identities', method: 'GET', path: '/byEmail' });

    // The same URL opened again shows the same view.
    await page.reload();
    await expect.poll(() => page.getByRole('combobox', { name: 'Metric' }).textContent()).toBe('Identities returned');
    await expect.poll(() => total(page, 'Requests').textContent()).toBe('3');

    await page.getByRole('button', { name: 'Calls' }).click();
    await page.waitForURL(/widget=calls/);
    await expect.poll(() => page.getByTestId('call-row').count()).toBe(3);
    // Spec §2's default columns, users and organizations by name, and the Metrics column (issue 32).
    expect(await page.getByRole('columnheader').allTextContents()).toEqual([
      'Time',
      'User',
      'Organization',
      'Method',
      'Path',
      'Inputs',
      'Identities returned',
      'Metrics',
    ]);
    const first = page.getByTestId('call-row').first();
    let cells = await first.getByRole('cell').allTextContents();
    expect(cells.slice(1, 5)).toEqual(['Root', '', 'GET', '/byEmail']);
    expect(cells[7]).toMatch(/ ms$/);
    // The key and the outcome from the column chooser (issue 32).
    for (const column of ['Key', 'Status']) {
      await page.getByRole('button', { name: 'Columns' }).click();
      await page.getByRole('menuitemcheckbox', { name: column, exact: true }).click();
      await page.keyboard.press('Escape');
    }
    await page.waitForURL(/columns=key%2Cstatus|columns=key,status/);
    cells = await first.getByRole('cell').allTextContents();
    expect(cells.slice(1, 7)).toEqual(['Root', '', 'usage e2e', 'GET', '/byEmail', 'Served (200)']);
    expect(await first.getByRole('link', { name: 'usage e2e' }).getAttribute('href')).toBe(`/keys/${item.id}`);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Emails', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL(/columns=key%2Cstatus%2Cemails|columns=key,status,emails/);
    await page.getByRole('columnheader', { name: 'Emails' }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^usage-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]!.startsWith('at,userId,organizationId,keyId,method,path,status,inputs,')).toBe(true);
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((l) => l.includes(`,${item.id},GET,/byEmail,200,`))).toBe(true);

    // A call made while the page is open appears without a reload.
    await lookup();
    await expect.poll(() => page.getByTestId('call-row').count(), { timeout: 10_000 }).toBe(4);
    await expect.poll(() => total(page, 'Requests').textContent(), { timeout: 10_000 }).toBe('4');

    // Ranges: a preset keeps today's calls; a custom range before them has none, and its pickers are in the URL.
    await choose(page, 'Range', 'Last week');
    await page.waitForURL(/range=week/);
    await expect.poll(() => total(page, 'Requests').textContent()).toBe('4');
    await choose(page, 'Range', 'Custom');
    await page.getByLabel('From').first().waitFor();
    const before = new URL(page.url());
    before.searchParams.set('from', '2026-01-01T00:00:00.000Z');
    before.searchParams.set('to', '2026-01-08T00:00:00.000Z');
    await page.goto(before.href);
    await expect.poll(() => total(page, 'Requests').textContent()).toBe('0');
    expect(query(page).get('range')).toBe('custom');

    // The key filter (issue 32): another key's call is left out when one key is chosen.
    const other = await callApi(page, 'POST', '/v2/keys', { name: 'second key' });
    const second = Object.values((other.body as { keys: Record<string, { id: string; secret: string }> }).keys)[0]!;
    key = `${second.id}${second.secret}`;
    await lookup();
    await page.goto(`${env.server.url}/usage?widget=calls`);
    await expect.poll(() => page.getByTestId('call-row').count()).toBe(5);
    await chooseFrom(page, 'Key', `second key (${second.id})`);
    await page.waitForURL(new RegExp(`key=${second.id}`));
    await expect.poll(() => page.getByTestId('call-row').count()).toBe(1);
    await expect.poll(() => total(page, 'Requests').textContent()).toBe('1');
    await chooseFrom(page, 'Key', `usage e2e (${item.id})`);
    await expect.poll(() => total(page, 'Requests').textContent()).toBe('4');
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide, chart and calls`, async () => {
        const page = await rootPage({ colorScheme, width });
        for (const widget of ['chart', 'calls']) {
          const extra = widget === 'calls' ? '&columns=key,status' : ''; // the chooser's detail columns too
          await page.goto(`${env.server.url}/usage?widget=${widget}${extra}`);
          await page
            .getByTestId(widget === 'chart' ? 'usage-chart' : 'call-row')
            .first()
            .waitFor();
          expect(await axeViolations(page)).toEqual([]);
          expect(await sidewaysScroll(page)).toEqual([]);
          const dir = process.env.SCREENSHOT_DIR;
          if (dir)
            await page.screenshot({ path: `${dir}/usage-${widget}-${colorScheme}-${width}.png`, fullPage: true });
        }
      });
    }
  }
});
