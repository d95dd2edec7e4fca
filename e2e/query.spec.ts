/**
 * Query (issue 20) in Chromium against the real server: the first Run asks for the password, then the result
 * shows in a table; a write is refused with the reason; Explain shows the plan; the result is saved as a CSV
 * file; a query is saved and appears in the history. The page passes WCAG 2.1 AA in both themes, wide and narrow.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';
import { ROOT } from './support/server';

const env = useServerAndBrowser();
const openAs = usePages(env);
const rootPage = (options: PageOptions = {}) => openAs('root', options);

/** Replaces the editor's text as a person would: select all, type. */
async function write(page: Page, sql: string) {
  const editor = page.getByRole('textbox', { name: 'SQL statement' });
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(sql);
  // Completion may be offering the last word: close it, as a person moving on would.
  await page.keyboard.press('Escape');
}

async function confirmPassword(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Confirm your password' });
  await dialog.getByLabel('Password').fill(ROOT.password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('query (issue 20)', () => {
  it('asks for the password, runs, refuses a write, explains, exports and saves', async () => {
    const page = await rootPage();
    await page.goto(`${env.server.url}/query`);
    await page.getByRole('textbox', { name: 'SQL statement' }).waitFor();
    await write(page, 'select id, email from users order by id');
    await page.getByRole('button', { name: 'Run', exact: true }).click();

    // Step-up: a wrong password is named in the dialog; the right one runs the query.
    const dialog = page.getByRole('dialog', { name: 'Confirm your password' });
    await dialog.getByLabel('Password').fill('Not-the-passw0rd');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('The password is incorrect.').waitFor();
    await confirmPassword(page);
    const result = page.getByTestId('query-result');
    await result.getByRole('cell', { name: ROOT.email }).waitFor();
    await expect.poll(() => page.getByTestId('query-summary').textContent()).toMatch(/^\d+ rows? in \d+ ms$/);

    await write(page, 'delete from users');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('query-error').textContent())
      .toBe('The query console is read-only: DELETE changes data and is refused.');

    await write(page, 'select * from users where id = 1');
    await page.getByRole('button', { name: 'Explain' }).click();
    await result.getByRole('columnheader', { name: /QUERY PLAN/ }).waitFor();

    await write(page, 'select g, g * 2 as twice from generate_series(1, 30) g');
    await page.getByLabel('Row cap').fill('25');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^query-main-.*\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe('g,twice');
    expect(lines).toHaveLength(26);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const save = page.getByRole('dialog', { name: 'Save query' });
    await save.getByLabel('Name').fill('Doubles');
    await save.getByRole('button', { name: 'Save' }).click();
    await save.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'Saved' }).click();
    await page.getByRole('button', { name: /^Doubles/ }).waitFor();
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('tabpanel').getByText('delete from users').waitFor();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide`, async () => {
        const page = await rootPage({ colorScheme, width });
        await page.goto(`${env.server.url}/query`);
        await page.getByRole('textbox', { name: 'SQL statement' }).waitFor();
        await write(page, 'select id, email, role from users order by id');
        await page.getByRole('button', { name: 'Run', exact: true }).click();
        await page.getByRole('dialog', { name: 'Confirm your password' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await confirmPassword(page);
        await page.getByTestId('query-result').getByRole('cell', { name: ROOT.email }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toEqual([]);
        const dir = process.env.SCREENSHOT_DIR;
        if (dir) await page.screenshot({ path: `${dir}/query-${colorScheme}-${width}.png`, fullPage: true });
      });
    }
  }
});
