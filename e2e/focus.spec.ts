/**
 * Visible focus on every control (issue 32 item 11; WCAG 2.4.7, 2.4.11, 1.4.11), in real Chromium: Tab and
 * Shift+Tab through pages that hold the app-bar controls, the drawer, links, buttons, icon buttons, text fields,
 * selects, table sort headers, tabs and switches, and an open select's menu items; each focused control must
 * show a ring it does not show unfocused, at 3:1 or more, not under the top bar (nor the impersonation bar), in
 * the light and the dark theme. The window is short, so tabbing scrolls the page both ways.
 */
import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './support/browser';
import { focusProblems, tabThrough } from './support/focus-checks';
import { usePages } from './support/pages';
import { seedUser } from './support/server';

const ivy = seedUser('user', { name: 'Ivy Customer' });
const env = useServerAndBrowser({ users: [ivy] });
const openAs = usePages(env);

/** Home (top bar, drawer, cards), Profile (fields), Usage (selects, sort headers), Client Libraries (tabs), a user (switches). */
const PAGES = ['/', '/profile', '/usage', '/client', '/users/edit/1'];
const STEPS = 30;

describe.each(['light', 'dark'] as const)('focus rings in the %s theme', (theme) => {
  it.each(PAGES)('every control Tab reaches on %s shows a ring, clear of the top bar', async (path) => {
    const page = await openAs('root', { colorScheme: theme, width: 1280, height: 600 });
    await page.goto(`${env.server.url}${path}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const problems = [
      ...(await tabThrough(page, `${path} ${theme}`, STEPS)),
      ...(await tabThrough(page, `${path} ${theme}`, STEPS, { backwards: true })),
    ];
    expect(problems).toEqual([]);
  });

  it("an open select's options show the ring", async () => {
    const page = await openAs('root', { colorScheme: theme, width: 1280, height: 600 });
    await page.goto(`${env.server.url}/usage`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('combobox').first().focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('listbox').waitFor();
    const problems = [...(await focusProblems(page, `usage menu ${theme}`))];
    await page.keyboard.press('ArrowDown');
    problems.push(...(await focusProblems(page, `usage menu ${theme}, next option`)));
    expect(problems).toEqual([]);
  });
});

describe('focus while impersonating, narrow', () => {
  it.each(['light', 'dark'] as const)(
    'keeps the focused control clear of the top and impersonation bars (%s)',
    async (theme) => {
      const page = await openAs('root', { colorScheme: theme, width: 360, height: 640 });
      const id = env.server.users.find((u) => u.email === ivy.email)!.id;
      await page.goto(`${env.server.url}/users/${id}`);
      await page.getByRole('button', { name: 'Impersonate' }).click();
      await page.getByRole('region', { name: 'Impersonation' }).waitFor();
      await page.goto(`${env.server.url}/profile`);
      await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
      const problems = [
        ...(await tabThrough(page, `impersonating ${theme}`, STEPS)),
        ...(await tabThrough(page, `impersonating ${theme}`, STEPS, { backwards: true })),
      ];
      expect(problems).toEqual([]);
    },
  );
});
