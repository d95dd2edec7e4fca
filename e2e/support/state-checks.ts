/**
 * Checks for what shows only on an event (issue 32 item 1): the offline warning, an alert of each type, an open
 * dialog or menu, the impersonation bar. e2e/every-page.spec.ts sees each page at rest, so anything that appears
 * only while disconnected or after an action escaped it. Here a spec opens one page per view (light and dark,
 * wide and narrow), brings each into the state by a real action, and gets back every problem the page checks
 * find in that state, each line naming the state and the view.
 */
import type { Page } from 'playwright-core';
import { axeViolations, sidewaysScroll, transformedText } from './page-checks';
import type { PageOptions } from './pages';

export interface StateView {
  theme: 'light' | 'dark';
  width: number;
}

/** Wide: the full drawer. Narrow: a phone, the icon-only drawer (WCAG 1.4.10 reflows to 320 px; most phones are 360+). */
export const WIDE = 1280;
export const NARROW = 360;

export const STATE_VIEWS: readonly StateView[] = [
  { theme: 'light', width: WIDE },
  { theme: 'dark', width: WIDE },
  { theme: 'light', width: NARROW },
  { theme: 'dark', width: NARROW },
];

export const viewName = (view: StateView) => `${view.theme} at ${view.width} px`;

/** The options for `usePages`'s opener that give a page in `view`. */
export const viewOptions = (view: StateView): PageOptions => ({
  colorScheme: view.theme,
  width: view.width,
  height: 800,
});

/** Lets what the state changed reach the screen: two frames. */
export function settle(page: Page): Promise<unknown> {
  return page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null)))),
  );
}

/**
 * Every problem on the page as it is now, in `state`: axe-core's WCAG 2.1 A and AA violations, sideways scroll,
 * and text transformed instead of shown as written. Each line starts with the state and the view. With
 * SCREENSHOT_DIR set, the window is also saved there as `{state}-{theme}-{width}.png` to look at.
 */
export async function stateProblems(page: Page, state: string, view: StateView): Promise<string[]> {
  await settle(page);
  const dir = process.env.SCREENSHOT_DIR;
  if (dir) {
    const slug = state.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    await page.screenshot({ path: `${dir}/${slug}-${view.theme}-${view.width}.png` });
  }
  const found = [...(await axeViolations(page)), ...(await sidewaysScroll(page)), ...(await transformedText(page))];
  return found.map((problem) => `${state}, ${viewName(view)}: ${problem}`);
}

/**
 * Opens a page in each view with `open`, brings it into the state with `enter` (a real action: a click, a call, a
 * push) and returns the problems found there in every view; empty when the state passes everywhere.
 */
export async function checkStateInViews(
  state: string,
  open: (view: StateView) => Promise<Page>,
  enter: (page: Page, view: StateView) => Promise<void>,
  views: readonly StateView[] = STATE_VIEWS,
): Promise<string[]> {
  const problems: string[] = [];
  for (const view of views) {
    const page = await open(view);
    await enter(page, view);
    problems.push(...(await stateProblems(page, state, view)));
  }
  return problems;
}

/**
 * Pages already open (one per view) that one shared event brings into the state at once (a server push, the
 * server going away): `event` runs once, then each page waits with `shown` and is checked.
 */
export async function checkSharedState(
  state: string,
  pages: { view: StateView; page: Page }[],
  event: () => Promise<void>,
  shown: (page: Page) => Promise<void>,
): Promise<string[]> {
  await event();
  const problems: string[] = [];
  for (const { view, page } of pages) {
    await shown(page);
    problems.push(...(await stateProblems(page, state, view)));
  }
  return problems;
}

/** The part of `box` that the fixed top bar (with any status bars under it) hides, in px; 0 when none. */
export function hiddenUnderTopBar(page: Page, selector: string): Promise<number> {
  return page.evaluate((selector) => {
    const bar = document.querySelector('header');
    const el = document.querySelector(selector);
    if (!bar || !el || bar.contains(el)) return 0;
    const barBottom = bar.getBoundingClientRect().bottom;
    const top = el.getBoundingClientRect().top;
    return Math.max(0, barBottom - top);
  }, selector);
}
