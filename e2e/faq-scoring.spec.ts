/**
 * FAQ and Match Scores Explained (issue 18 items 1-2) in Chromium against the real server: the FAQ's search narrows
 * the questions as you type, /faq#{anchor} puts the answer 72 px below the top (spec §2), the calculator's bars add
 * up to the score the API returns for a seeded person, and both pages pass WCAG 2.1 AA in both themes, wide and
 * narrow, without sideways scrolling.
 */
import { mkdirSync } from 'node:fs';
import { SCROLL_OFFSET_PX } from '@tessera/common/constants';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';

const env = useServerAndBrowser({ env: { SEED_IDENTITIES: '200' } });
const openAs = usePages(env);

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-faq';
mkdirSync(SHOTS, { recursive: true });

const open = (options: PageOptions & { root?: boolean } = {}) => openAs(options.root ? 'root' : null, options);

async function arrived(page: Page, title: string): Promise<void> {
  await expect.poll(() => page.title()).toBe(`Tessera - ${title}`);
  await page.getByTestId('page-title').waitFor();
}

/** The window's scroll position once a smooth scroll has come to rest. */
async function restingScroll(page: Page): Promise<number> {
  const frames = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))));
  let last = -1;
  let still = 0;
  for (let i = 0; i < 200 && still < 5; i += 1) {
    await frames();
    const y = await page.evaluate(() => Math.round(window.scrollY));
    still = y === last ? still + 1 : 0;
    last = y;
  }
  return last;
}

const entries = (page: Page) => page.getByTestId('faq-entry');

describe('FAQ (issue 18 item 1)', () => {
  it('narrows the questions as you type and says how many match', async () => {
    const page = await open();
    await page.goto(`${env.server.url}/faq`);
    await arrived(page, 'Frequently Asked Questions');
    const all = await entries(page).count();
    expect(all).toBeGreaterThanOrEqual(20);
    expect(await page.getByTestId('faq-count').textContent()).toBe(`${all} questions`);

    await page.getByLabel('Search the questions').pressSequentially('retry', { delay: 40 });
    await expect.poll(() => entries(page).count()).toBeLessThan(all);
    const narrowed = await entries(page).count();
    expect(narrowed).toBeGreaterThan(0);
    expect(await page.getByTestId('faq-count').textContent()).toBe(`${narrowed} of ${all} questions match`);
    expect(await page.locator('#rate-limits').count()).toBe(1);

    await page.getByLabel('Search the questions').pressSequentially('-after 429', { delay: 40 });
    await expect.poll(() => entries(page).count()).toBeLessThanOrEqual(narrowed);
    await page.getByLabel('Search the questions').fill('no such words at all');
    await expect.poll(() => page.getByTestId('faq-count').textContent()).toBe('No question matches your search.');
    expect(await entries(page).count()).toBe(0);
    await page.getByLabel('Search the questions').fill('');
    await expect.poll(() => entries(page).count()).toBe(all);
  });

  it('opens /faq#anchor with the answer 72 px below the top, and links to each answer', async () => {
    const page = await open();
    await page.goto(`${env.server.url}/faq#rate-limits`);
    await arrived(page, 'Frequently Asked Questions');
    expect(await restingScroll(page)).toBeGreaterThan(0);
    const top = await page.locator('#rate-limits').evaluate((el) => el.getBoundingClientRect().top);
    expect(Math.abs(top - SCROLL_OFFSET_PX)).toBeLessThanOrEqual(2);
    await page.screenshot({ path: `${SHOTS}/faq-anchor-rate-limits.png` });

    // The answer's own link goes to its anchor, in the same way.
    await page.evaluate(() => window.scrollTo({ top: 0 }));
    await page
      .getByRole('link', { name: 'Link to this answer: How do I hash an e-mail address for byMd5 or bySha256?' })
      .click();
    await page.waitForURL(/\/faq#hash-email$/);
    await restingScroll(page);
    const keyTop = await page.locator('#hash-email').evaluate((el) => el.getBoundingClientRect().top);
    expect(Math.abs(keyTop - SCROLL_OFFSET_PX)).toBeLessThanOrEqual(2);
  });
});

describe('Match Scores Explained (issue 18 item 2)', () => {
  it("draws the calculator's contributions adding up to the score the API returns for a seeded person", async () => {
    const page = await open({ root: true });
    const byId = await callApi(page, 'GET', '/v2/identities/byId?id=7&template=5');
    expect(byId.status).toBe(200);
    const person = (byId.body as { identities: Record<string, string>[] }).identities[0]!;
    const query = {
      firstName: person.firstName!,
      lastName: person.lastName!,
      address: person.address!,
      city: person.city!,
      state: person.state!,
      zip: person.zip!,
    };
    const direct = await callApi(
      page,
      'GET',
      `/v2/identities/byPii?${new URLSearchParams({ ...query, explain: 'true', minScore: '0', limit: '1', template: '5' })}`,
    );
    expect(direct.status).toBe(200);
    const expected = (direct.body as { identities: { id: number; score: number }[] }).identities[0]!;
    expect(expected.id).toBe(7);

    await page.goto(`${env.server.url}/scoring`);
    await arrived(page, 'Match Scores Explained');
    await page.getByTestId('model-table').waitFor();
    for (const [name, value] of Object.entries(query)) await page.getByTestId(`calc-${name}`).fill(value);
    await page.getByTestId('calc-submit').click();
    await page.locator('[data-testid="calc-result"][data-source="api"]').waitFor();
    await page.getByTestId('waterfall-table').waitFor();
    const score = Number(await page.getByTestId('calc-score').textContent());
    expect(score).toBe(expected.score);
    const deltas = await page
      .getByTestId('step-delta')
      .evaluateAll((cells) => cells.map((c) => Number((c as HTMLElement).dataset.value)));
    expect(deltas).toHaveLength(7);
    expect(deltas.reduce((a, b) => a + b, 0)).toBe(score);
    expect(await page.getByTestId('waterfall-score').textContent()).toBe(String(score));
    expect(await page.getByTestId('waterfall').locator('svg').count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('calc-result').screenshot({ path: `${SHOTS}/scoring-calculator-root.png` });
  });

  it('shows visitors the built-in example reply', async () => {
    const page = await open();
    await page.goto(`${env.server.url}/scoring#calculator`);
    await arrived(page, 'Match Scores Explained');
    await page.locator('[data-testid="calc-result"][data-source="example"]').waitFor();
    await page.getByTestId('waterfall-table').waitFor();
    expect(await page.getByTestId('calc-submit').count()).toBe(0);
    const score = Number(await page.getByTestId('calc-score').textContent());
    const deltas = await page
      .getByTestId('step-delta')
      .evaluateAll((cells) => cells.map((c) => Number((c as HTMLElement).dataset.value)));
    expect(deltas.reduce((a, b) => a + b, 0)).toBe(score);
  });
});

describe('accessibility and layout', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide, without sideways scroll`, async () => {
        const page = await open({ colorScheme, width });
        for (const [path, title] of [
          ['/faq', 'Frequently Asked Questions'],
          ['/scoring', 'Match Scores Explained'],
        ] as const) {
          await page.goto(`${env.server.url}${path}`);
          await arrived(page, title);
          if (path === '/scoring') await page.getByTestId('waterfall-table').waitFor();
          expect(await axeViolations(page)).toEqual([]);
          expect(await sidewaysScroll(page)).toEqual([]);
          await page.screenshot({ path: `${SHOTS}${path}-${colorScheme}-${width}.png`, fullPage: true });
        }
      });
    }
  }
});
