/**
 * Checks every page must pass, for e2e/every-page.spec.ts: axe-core's WCAG 2.1 A and AA rules, no sideways
 * scroll, and text shown as written (no CSS text-transform). Each returns a list of readable problems, empty
 * when the page passes, so a failure names what to fix.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Stops CSS transitions and animations in every document of the context, so colours are read at rest (a fading
 * alert is not a contrast failure) and nothing moves while a page is measured.
 */
export async function stillPages(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const style = document.createElement('style');
    style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }';
    const add = () => document.head.append(style);
    if (document.head) add();
    else document.addEventListener('DOMContentLoaded', add, { once: true });
  });
}

/**
 * Counts the page's calls to the server still waiting for an answer, so a check can wait for a page's data
 * to arrive instead of sleeping.
 */
export function trackRequests(page: Page): () => number {
  let pending = 0;
  const isCall = (url: string) => !/\/assets\//.test(new URL(url).pathname);
  page.on('request', (r) => {
    if (isCall(r.url())) pending += 1;
  });
  const done = (r: { url(): string }) => {
    if (isCall(r.url())) pending = Math.max(0, pending - 1);
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return () => pending;
}

/**
 * Opens `path` and waits until the console has finished the navigation (title set, loading flag off) and the
 * page's calls have been answered and rendered.
 */
export async function openSettled(page: Page, url: string, pending: () => number): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(
    () =>
      document.title.startsWith('Tessera - ') &&
      document.querySelector('[data-testid="page-spinner"]')?.getAttribute('aria-busy') === 'false',
    undefined,
    { polling: 'raf' },
  );
  await expect.poll(pending, { message: `calls of ${url}`, interval: 20 }).toBe(0);
  // Two frames: what the answers changed is on screen.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null)))),
  );
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe-core's WCAG 2.1 A and AA violations on the page as it is now, one line per failing element. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = (await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<{ violations: unknown }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations;
  }, WCAG_TAGS)) as AxeViolation[];
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}${
          n.failureSummary ? ` - ${n.failureSummary.replace(/\s+/g, ' ')}` : ''
        }`,
    ),
  );
}

/** Elements reaching past the window's right edge when the page scrolls sideways; empty when it does not. */
export function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${
        el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : ''
      }.${Array.from(el.classList).slice(0, 3).join('.')}`;
    const wide = Array.from(document.body.querySelectorAll('*'))
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
      // The innermost ones: those with no too-wide child.
      .filter((el) => !Array.from(el.children).some((c) => c.getBoundingClientRect().right > root.clientWidth + 0.5));
    return [
      `the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window`,
      ...wide.slice(0, 5).map((el) => `${name(el)} ends at ${Math.round(el.getBoundingClientRect().right)} px`),
    ];
  });
}

/** Text the page transforms (e.g. buttons in capitals) instead of showing it as written. */
export function transformedText(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.body.querySelectorAll('*'))
      .filter((el) => Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim()))
      .filter((el) => getComputedStyle(el).textTransform !== 'none')
      .map((el) => `"${el.textContent?.trim()}" is shown ${getComputedStyle(el).textTransform}`),
  );
}
