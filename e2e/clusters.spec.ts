/**
 * Clusters (issue 20) in Chromium against the real server: root sees the main database's card with its health
 * and a CLUSTERS node that nothing listens on in red, refreshed over the socket; the page passes WCAG 2.1 AA in
 * both themes, wide and narrow.
 */
import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';

const env = useServerAndBrowser({ env: { CLUSTERS: 'replica1=postgres://tessera@127.0.0.1:1/none' } });
const openAs = usePages(env);
const rootPage = (options: PageOptions = {}) => openAs('root', options);

describe('clusters (issue 20)', () => {
  it('shows each node, the unreachable one in red, and refreshes over the socket', async () => {
    const page = await rootPage();
    await page.goto(`${env.server.url}/clusters`);
    const main = page.getByRole('region', { name: 'main' });
    await main.getByText('Reachable', { exact: true }).waitFor();
    expect(await main.getByText('Server version').count()).toBe(1);
    await main.getByRole('table', { name: 'Largest tables of main' }).getByText('public.users').waitFor();
    const down = page.getByRole('region', { name: 'replica1' });
    await down.getByText('Unreachable', { exact: true }).waitFor();
    expect(await down.getAttribute('data-reachable')).toBe('false');
    await down.getByText(/Not answering: Connection refused\./).waitFor();
    // The socket's rounds replace the first reading: the time it was checked moves on.
    const checked = () => main.getAttribute('data-checked-at');
    const first = await checked();
    await expect.poll(checked, { timeout: 15_000 }).not.toBe(first);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide`, async () => {
        const page = await rootPage({ colorScheme, width });
        await page.goto(`${env.server.url}/clusters`);
        await page.getByRole('region', { name: 'replica1' }).getByText('Unreachable', { exact: true }).waitFor();
        await page.getByRole('region', { name: 'main' }).getByText('public.users').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toEqual([]);
        const dir = process.env.SCREENSHOT_DIR;
        if (dir) await page.screenshot({ path: `${dir}/clusters-${colorScheme}-${width}.png`, fullPage: true });
      });
    }
  }
});
