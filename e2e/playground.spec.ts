/**
 * The playground (issue 17) in Chromium against the real server: it opens at exactly the spec §2 defaults, typing
 * re-fetches once after the 250 ms debounce, a byId lookup shows identity 7 in the CSV table and in JSON, a copied
 * link restores the request, a POST batch and a PUT upload run from the page, and it passes WCAG 2.1 AA in both
 * themes, wide and 390 px narrow, without sideways scroll. Screenshots go to /tmp/shots-playground/.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';

const run = promisify(execFile);

const env = useServerAndBrowser({ env: { SEED_IDENTITIES: '200' } });
const openAs = usePages(env);
const SHOTS = '/tmp/shots-playground';

beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

const openPage = (options: PageOptions = {}) => openAs('root', options);

/** Counts the page's lookup calls (GET, POST, PUT to /v2/identities/...). */
function countLookups(page: Page): { urls: string[] } {
  const seen = { urls: [] as string[] };
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/v2/identities/')) seen.urls.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  return seen;
}

const pressed = (page: Page, name: string) =>
  page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed');
const csvColumn = async (page: Page, name: string): Promise<string[]> => {
  const headers = await page.getByTestId('csv-table').locator('thead th').allTextContents();
  const index = headers.indexOf(name);
  expect(index, `column ${name} in ${headers.join(',')}`).toBeGreaterThanOrEqual(0);
  return page
    .getByTestId('csv-row')
    .locator(`td:nth-child(${index + 1})`)
    .allTextContents();
};

describe('playground (issue 17)', () => {
  it('opens at exactly the spec defaults and sends nothing until an input is valid', async () => {
    const page = await openPage();
    const lookups = countLookups(page);
    await page.goto(`${env.server.url}/playground`);
    await page.getByTestId('reply-hint').waitFor();
    expect(await page.title()).toBe('Tessera - Playground');
    expect(new URL(page.url()).search).toBe('');
    expect(await pressed(page, 'GET')).toBe('true');
    expect(await pressed(page, 'CSV')).toBe('true');
    expect(await page.getByRole('combobox', { name: 'Path' }).textContent()).toBe('/v2/identities/byAny');
    expect(await page.getByRole('combobox', { name: 'Template (optional)' }).textContent()).toBe('None');
    expect(await page.getByRole('switch', { name: 'Auto-fetch' }).isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(0);
    // Parameter pane 50 %.
    const group = (await page.getByTestId('split-pane').boundingBox())!;
    const params = (await page.locator('[data-panel]#params').boundingBox())!;
    expect(Math.abs(params.width / group.width - 0.5)).toBeLessThan(0.02);
    // The form is the OpenAPI document's byAny parameters: every input with its description.
    for (const name of ['email', 'md5', 'sha256', 'phone', 'ip', 'device', 'vin', 'id', 'firstName', 'zip']) {
      await page.locator(`#param-${name}`).waitFor();
    }
    await page.waitForTimeout(600);
    expect(lookups.urls).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/defaults-light-1280.png`, fullPage: true });
  });

  it('re-fetches once after typing stops; identity 7 by id in the CSV table and in JSON; a link restores it', async () => {
    const page = await openPage();
    const lookups = countLookups(page);
    await page.goto(`${env.server.url}/playground?path=byId`);
    const id = page.locator('#param-id');
    await id.pressSequentially('17', { delay: 60 });
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await id.pressSequentially('7', { delay: 60 });
    await page.getByTestId('csv-table').waitFor();
    await page.waitForTimeout(800);
    expect(lookups.urls).toEqual(['GET /v2/identities/byId?id=7&format=csv']);
    expect(await page.getByTestId('reply-status').textContent()).toBe('200');
    expect(await page.getByTestId('reply-size').textContent()).toMatch(/^\d+(\.\d)? (B|kB)$/);
    expect(await page.getByTestId('reply-request-id').textContent()).toMatch(/^Request id \S+/);
    expect(await csvColumn(page, 'id')).toEqual(['7']);
    await page.screenshot({ path: `${SHOTS}/by-id-csv-light-1280.png`, fullPage: true });

    await page.getByRole('button', { name: 'JSON', exact: true }).click();
    await page.getByTestId('json-tree').waitFor();
    await page.waitForURL(/format=json/);
    const tree = page.getByTestId('json-tree');
    await tree.getByText('identities:').waitFor();
    expect(
      await tree
        .getByText(/^id: $/)
        .first()
        .locator('..')
        .textContent(),
    ).toBe('id: 7');
    expect(lookups.urls).toHaveLength(2);

    // The link, opened elsewhere, is the same request with the same reply.
    const link = page.url();
    expect(new URL(link).search).toBe('?path=byId&format=json&id=7');
    const other = await (await openPage()).context().newPage();
    await other.goto(link);
    expect(await other.locator('#param-id').inputValue()).toBe('7');
    expect(await pressed(other, 'JSON')).toBe('true');
    await other.getByTestId('json-tree').getByText('identities:').waitFor();
    expect(
      await other
        .getByTestId('json-tree')
        .getByText(/^id: $/)
        .first()
        .locator('..')
        .textContent(),
    ).toBe('id: 7');
  });

  it('with auto-fetch off, waits for Send', async () => {
    const page = await openPage();
    const lookups = countLookups(page);
    await page.goto(`${env.server.url}/playground?path=byId&id=7&auto=off`);
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await page.waitForTimeout(600);
    expect(lookups.urls).toEqual([]);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('csv-table').waitFor();
    expect(lookups.urls).toHaveLength(1);
  });

  it('sends a POST batch and shows an error in place', async () => {
    const page = await openPage();
    await page.goto(`${env.server.url}/playground?method=POST&path=byId`);
    await page.getByLabel('Inputs').fill('7\n8');
    await page.getByTestId('csv-table').waitFor();
    expect(await csvColumn(page, 'input.id')).toEqual(['7', '8']);
    expect(await csvColumn(page, 'id')).toEqual(['7', '8']);
    await page.screenshot({ path: `${SHOTS}/post-batch-light-1280.png`, fullPage: true });

    // A template nobody has: the server's message, in place.
    await page.goto(`${env.server.url}/playground?path=byId&id=7&template=999999`);
    const error = page.getByTestId('reply-error');
    await error.waitFor();
    expect(await page.getByTestId('reply-status').textContent()).toBe('400');
    expect((await error.textContent())?.length).toBeGreaterThan(5);
  });

  it('uploads a CSV with PUT and shows the streamed rows', async () => {
    const page = await openPage();
    await page.goto(`${env.server.url}/playground?method=PUT&path=byId`);
    await page.getByTestId('csv-file').setInputFiles({
      name: 'ids.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('id,note\n7,first\n8,second\n'),
    });
    await page
      .getByTestId('chosen-file')
      .getByText(/^ids\.csv, \d+ B$/)
      .waitFor();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('csv-table').waitFor();
    expect(await csvColumn(page, 'note')).toEqual(['first', 'second']);
    expect(await page.getByTestId('reply-status').textContent()).toBe('200');
  });

  it('streams a large PUT reply with a row count, and Cancel stops it', async () => {
    const page = await openPage();
    await page.goto(`${env.server.url}/playground?method=PUT&path=byId`);
    // A slow line, so the reply is still coming when Cancel is pressed.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: 300_000,
      uploadThroughput: -1,
    });
    const rows = Array.from({ length: 20_000 }, (_, i) => `${(i % 200) + 1}`).join('\n');
    await page.getByTestId('csv-file').setInputFiles({
      name: 'many.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`id\n${rows}\n`),
    });
    await page.getByRole('button', { name: 'Send' }).click();
    const progress = page.getByTestId('stream-progress');
    await progress.waitFor();
    expect(await progress.textContent()).toMatch(/^[\d,]+ rows received$/);
    await page.getByRole('button', { name: 'Cancel' }).dispatchEvent('click');
    await page.getByText('Cancelled: the rows received before it are shown.').waitFor();
    await page.getByTestId('csv-table').waitFor();
    expect(await page.getByTestId('csv-row').count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/put-cancelled-light-1280.png`, fullPage: true });
  }, 60_000);

  it('fills a name and address for byPii and draws the score explanation', async () => {
    const page = await openPage();
    const found = await callApi(page, 'GET', '/v2/identities/byId?id=7&format=json');
    const person = (found.body as { identities: Record<string, string>[] }).identities[0]!;
    await page.goto(`${env.server.url}/playground?path=byPii&format=json&explain=true`);
    await page.locator('#param-firstName').fill(person.firstName!);
    await page.locator('#param-lastName').fill(person.lastName!);
    await page.locator('#param-zip').fill(person.zip!);
    await page.getByTestId('explain-charts').waitFor();
    const first = page.getByTestId('explain-identity').first();
    expect(await first.textContent()).toMatch(/^Identity 7, score \d+/);
    expect(await first.getByRole('img').first().getAttribute('aria-label')).toMatch(/^Field match weight: firstName/);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/explain-light-1280.png`, fullPage: true });
  });

  it('gives code samples, with the client libraries installed from this server, that run as shown and return the same identities', async () => {
    const page = await openPage();
    const made = await callApi(page, 'POST', '/v2/keys', { name: 'playground samples' });
    expect(made.status).toBe(201);
    const item = Object.values((made.body as { keys: Record<string, { id: string; secret: string }> }).keys)[0]!;
    const key = `${item.id}${item.secret}`;
    const dir = mkdtempSync(join(tmpdir(), 'playground-samples-'));
    // The client libraries, installed from this server as the Client Libraries page says.
    const listed = (await (await fetch(`${env.server.url}/v2/clients`)).json()) as {
      clientPackages: { language: string; file: string }[];
    };
    const fileOf = (language: string) => listed.clientPackages.find((p) => p.language === language)!.file;
    const url = (file: string) => `${env.server.url}/clients/${file}`;
    const jar = join(dir, fileOf('java'));
    writeFileSync(jar, Buffer.from(await (await fetch(url(fileOf('java')))).arrayBuffer()));
    // Child processes run without blocking this process's event loop: a blocked loop cannot see the server close an
    // idle kept-alive socket, and the next fetch would reuse it and fail with "other side closed" (seen on a loaded CI).
    await run('npm', ['install', '--no-audit', '--no-fund', url(fileOf('js'))], { cwd: dir, timeout: 120_000 });
    await run('python3', ['-m', 'venv', join(dir, 'venv')], { timeout: 120_000 });
    await run(join(dir, 'venv/bin/pip'), ['install', '-q', url(fileOf('python'))], {
      cwd: dir,
      timeout: 120_000,
      env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' },
    });
    const cases = [
      { url: '/playground?path=byId&id=7&format=json', ids: [7] },
      { url: `/playground?method=POST&path=byId&format=json&batch=${encodeURIComponent('7\n8')}`, ids: [7, 8] },
    ];
    for (const { url, ids } of cases) {
      await page.goto(`${env.server.url}${url}`);
      await page.getByTestId('json-tree').waitFor();
      for (const language of ['curl', 'JavaScript', 'Python', 'Java']) {
        await page.getByRole('tab', { name: language, exact: true }).click();
        const shown = (await page.getByTestId('sample-code').textContent()) ?? '';
        expect(shown).toContain('YOUR_API_KEY');
        const code = shown.replace('YOUR_API_KEY', key);
        const file = join(
          dir,
          { curl: 'sample.sh', JavaScript: 'sample.mjs', Python: 'sample.py', Java: 'Lookup.java' }[language]!,
        );
        writeFileSync(file, code);
        const [command, ...args] = {
          curl: ['sh'],
          JavaScript: ['node'],
          Python: [join(dir, 'venv/bin/python3')],
          Java: ['java', '-cp', jar],
        }[language]!;
        const { stdout: output } = await run(command!, [...args, file], {
          cwd: dir,
          encoding: 'utf8',
          timeout: 60_000,
        });
        const body = JSON.parse(output) as {
          identities?: { id: number }[];
          results?: { identities: { id: number }[] }[];
        };
        const found = body.identities ?? (body.results ?? []).flatMap((r) => r.identities);
        expect(
          found.map((i) => i.id),
          `${language} for ${url}`,
        ).toEqual(ids);
      }
    }
    // The language is remembered in the settings.
    await page.reload();
    await page.getByRole('tab', { name: 'Java', exact: true, selected: true }).waitFor();
  }, 240_000);

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide`, async () => {
        const page = await openPage({ colorScheme, width });
        await page.goto(`${env.server.url}/playground?path=byId&id=7`);
        await page.getByTestId('csv-table').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/by-id-csv-${colorScheme}-${width}.png`, fullPage: true });
        await page.getByRole('button', { name: 'JSON', exact: true }).click();
        await page.getByTestId('json-tree').waitFor();
        await page.getByRole('button', { name: 'Headers' }).click();
        expect(await axeViolations(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/by-id-json-${colorScheme}-${width}.png`, fullPage: true });
        await page.goto(`${env.server.url}/playground?method=POST&path=byEmail&batch=nope`);
        await page
          .locator('#batch-inputs-helper-text')
          .getByText(/^line 1:/)
          .waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/post-error-${colorScheme}-${width}.png`, fullPage: true });
      });
    }
  }
});
