/**
 * Template authoring help (issue 32 item 5) in Chromium against the real server: the JSONata editor completes the
 * record's fields (from docs/identity-record.schema.json) after a path and JSONata's functions after `$`; the field
 * reference beside it writes a field's path at the cursor by click and by keyboard, and the preview follows; Tab
 * indents inside the editor and Esc then Tab leaves it. The page passes WCAG 2.1 AA in both themes with the
 * reference open and with the completion list open, at 1280 and 360 px; screenshots go to
 * /tmp/shots-template-completion/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Template } from '@tessera/common/templates';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { focusProblems } from './support/focus-checks';
import { axeViolations, openSettled, sidewaysScroll, trackRequests } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';

const env = useServerAndBrowser({ env: { SEED_IDENTITIES: '40' } });
const openAs = usePages(env);
const SHOTS = '/tmp/shots-template-completion';

const schema = JSON.parse(readFileSync(new URL('../docs/identity-record.schema.json', import.meta.url), 'utf8')) as {
  properties: Record<string, { items?: { properties: Record<string, unknown> } }>;
};
const EMAIL_FIELDS = Object.keys(schema.properties.emails?.items?.properties ?? {});

async function makeTemplate(page: Page, expression: string): Promise<Template> {
  const made = await callApi(page, 'POST', '/v2/templates', { name: 'Completion', description: '', expression });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return Object.values((made.body as { templates: Record<string, Template> }).templates)[0]!;
}

/** Replaces the editor's text, as a paste would (no completion, no brackets closed), the cursor at the end. */
async function setExpression(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const editorText = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('.cm-content .cm-line'))
      .map((l) => l.textContent)
      .join('\n'),
  );

const completionLabels = (page: Page) =>
  page.locator('.cm-tooltip-autocomplete li[role="option"] .cm-completionLabel').allTextContents();

/**
 * Enter picks from the completion list once it has been open a moment (CodeMirror's interactionDelay, 75 ms, keeps
 * an Enter typed as the list appears a new line): the pause a person makes reading the list.
 */
const pick = async (page: Page) => {
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
};

/** A field's item in the reference's tree, by its path. */
const item = (page: Page, path: string) => page.locator(`[role="tree"] [role="treeitem"][data-path="${path}"]`);

async function openEditor(options: PageOptions = {}): Promise<Page> {
  const page = await openAs('root', options);
  const t = await makeTemplate(page, '{ "id": id }');
  const pending = trackRequests(page);
  await openSettled(page, `${env.server.url}/templates/edit/${t.id}`, pending);
  await page.locator('.cm-content').waitFor();
  await page.getByTestId('preview-output').waitFor();
  return page;
}

beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

describe('template authoring help (issue 32 item 5)', () => {
  it('completes the record’s fields after a path and functions after $, and the preview follows', async () => {
    const page = await openEditor();
    await setExpression(page, '{ "id": id, "mail": emails');
    await page.keyboard.type('.');
    const list = page.getByRole('listbox', { name: 'Completions' });
    await list.waitFor();
    await expect.poll(() => completionLabels(page)).toEqual(EMAIL_FIELDS);
    // The chosen option tells its type and description.
    await page.locator('.cm-completionInfo').getByText('emails.address: string').waitFor();
    await page.keyboard.type('ad');
    await expect.poll(() => completionLabels(page)).toEqual(['address']);
    await pick(page);
    await list.waitFor({ state: 'detached' });

    // A function, with its signature; picked, it comes with its brackets and the cursor inside them.
    await page.keyboard.type(', "phones": $cou');
    await list.waitFor();
    const count = page.getByRole('option', { name: /^\$count/ });
    await count.waitFor();
    expect(await count.locator('.cm-completionDetail').textContent()).toBe('(array) → number');
    await pick(page);
    await page.keyboard.type('pho');
    await expect.poll(() => completionLabels(page)).toEqual(['phones']);
    await pick(page);
    await page.keyboard.press('End');
    await page.keyboard.type(' }');
    expect(await editorText(page)).toBe('{ "id": id, "mail": emails.address, "phones": $count(phones) }');
    const output = page.getByTestId('preview-output');
    await expect.poll(() => output.textContent()).toMatch(/"mail":[\s\S]*"phones": \d+/);

    // Ctrl+Space inside an object constructor lists the top-level fields and the functions.
    await setExpression(page, '{ "x": ');
    await page.keyboard.press('Control+Space');
    await list.waitFor();
    const labels = await completionLabels(page);
    // The fields first (in CodeMirror's order: by name), then the functions.
    const top = Object.keys(schema.properties);
    expect(labels.slice(0, top.length).sort()).toEqual([...top].sort());
    expect(labels).toContain('$map');
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
  });

  it('writes a field’s path at the cursor from the field reference, by click and by keyboard', async () => {
    const page = await openEditor();
    const tree = page.getByRole('tree', { name: 'Record fields' });
    await tree.waitFor();
    await setExpression(page, '{ "carrier": ');

    // A filter shows the matching field inside its parent; a click writes its path.
    const filter = page.getByRole('searchbox', { name: 'Filter fields' });
    await filter.fill('carrier');
    // Named by what it shows: name, type and description.
    const carrier = tree.getByRole('treeitem', { name: 'carrier string', exact: true });
    await carrier.waitFor();
    expect(await item(page, 'phones').getAttribute('aria-expanded')).toBe('true');
    expect(await item(page, 'phones').getAttribute('aria-level')).toBe('1');
    expect(await carrier.getAttribute('aria-level')).toBe('2');
    await carrier.click();
    await expect.poll(() => editorText(page)).toBe('{ "carrier": phones.carrier');
    await expect.poll(() => page.getByTestId('field-status').textContent()).toBe('Wrote phones.carrier at the cursor.');

    // Back in the editor, then by keyboard only: Tab from the filter into the tree, a letter, arrows, Enter.
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(', "mail": ');
    await filter.fill('');
    await filter.focus();
    await page.keyboard.press('Tab');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-path') ?? null);
    expect(await focused()).toBe('id');
    expect(await focusProblems(page, 'field tree')).toEqual([]);
    await page.keyboard.press('e');
    expect(await focused()).toBe('emails');
    const emails = item(page, 'emails');
    expect(await emails.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowRight');
    expect(await emails.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('emails.address');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('emails');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText(page)).toBe('{ "carrier": phones.carrier, "mail": emails.address');
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' }');
    await expect.poll(() => page.getByTestId('preview-output').textContent()).toMatch(/"carrier":[\s\S]*"mail":/);

    // The reference closes and opens again from its button.
    await page.getByRole('button', { name: 'Close the field reference' }).click();
    await tree.waitFor({ state: 'detached' });
    const toggle = page.getByRole('button', { name: 'Field reference' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await tree.waitFor();
  });

  it('indents with Tab inside the editor and leaves it with Esc then Tab', async () => {
    const page = await openEditor();
    await expect
      .poll(() => page.getByTestId('editor-hint').textContent())
      .toBe('Tab indents. To leave the editor, press Esc, then Tab. Ctrl+Space lists fields and functions.');
    expect(
      await page
        .locator('.cm-content')
        .evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.id),
    ).toBeTruthy();
    await setExpression(page, '{\n"id": id\n}');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Home');
    await page.keyboard.press('Tab');
    expect(await editorText(page)).toBe('{\n  "id": id\n}');
    const inEditor = () => page.evaluate(() => !!document.activeElement?.closest('.cm-editor'));
    expect(await inEditor()).toBe(true);

    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await inEditor()).toBe(false);
    expect(await editorText(page)).toBe('{\n  "id": id\n}');

    // With the completion list open, Esc closes it and Tab then leaves as well.
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' & emails.');
    await page.getByRole('listbox', { name: 'Completions' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('listbox', { name: 'Completions' }).waitFor({ state: 'detached' });
    await page.keyboard.press('Tab');
    expect(await inEditor()).toBe(false);
    expect(await editorText(page)).toBe('{\n  "id": id\n} & emails.');
  });

  describe.each(['light', 'dark'] as const)('the %s theme', (theme) => {
    it('passes WCAG 2.1 AA with the reference open and with the completion list open, at 1280 px', async () => {
      const page = await openEditor({ colorScheme: theme, width: 1280 });
      await page.getByRole('tree', { name: 'Record fields' }).waitFor();
      await item(page, 'phones').focus();
      await page.keyboard.press('ArrowRight');
      await page.screenshot({ path: `${SHOTS}/edit-${theme}-1280.png`, fullPage: true });
      expect(await axeViolations(page), 'reference open').toEqual([]);
      expect(await sidewaysScroll(page)).toEqual([]);

      await setExpression(page, '{ "id": id, "mail": emails');
      await page.keyboard.type('.');
      await page.getByRole('listbox', { name: 'Completions' }).waitFor();
      await page.locator('.cm-completionInfo').waitFor();
      await page.screenshot({ path: `${SHOTS}/completion-${theme}-1280.png` });
      expect(await axeViolations(page), 'completion open').toEqual([]);
    });

    it('passes WCAG 2.1 AA with the reference in a drawer and with the completion list open, at 360 px', async () => {
      const page = await openEditor({ colorScheme: theme, width: 360, height: 780 });
      expect(await page.getByRole('tree', { name: 'Record fields' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Field reference' }).click();
      const tree = page.getByRole('tree', { name: 'Record fields' });
      await tree.waitFor();
      await page.screenshot({ path: `${SHOTS}/edit-${theme}-360.png` });
      expect(await axeViolations(page), 'drawer open').toEqual([]);
      expect(await sidewaysScroll(page)).toEqual([]);

      // The drawer is over the top bar: its close button takes the click.
      await page.getByRole('button', { name: 'Close the field reference' }).click();
      await tree.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Field reference' }).click();
      // A pick writes the path and closes the drawer.
      await item(page, 'firstName').click();
      await tree.waitFor({ state: 'detached' });
      await expect.poll(() => editorText(page)).toContain('firstName');

      await setExpression(page, '{ "id": id, "mail": emails');
      await page.keyboard.type('.');
      await page.getByRole('listbox', { name: 'Completions' }).waitFor();
      await page.screenshot({ path: `${SHOTS}/completion-${theme}-360.png`, fullPage: true });
      expect(await axeViolations(page), 'completion open').toEqual([]);
      await page.screenshot({ path: `${SHOTS}/page-${theme}-360.png`, fullPage: true });
    });
  });
});
