/**
 * Agreement versions in Chromium against the real server (issue 18 item 5): root publishes a new version of the
 * Terms of Use on the Terms page (its HTML sanitised on save); a signed-in user is sent to the new version at
 * their next navigation and goes on once they accept; root sees the versions and who accepted each. WCAG 2.1 AA
 * in light and dark at 1280 and 390 px. Screenshots go to SCREENSHOT_DIR (default /tmp/shots-contact).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, signIn, signInAsRoot, useServerAndBrowser } from './support/browser';
import { axeViolations } from './support/page-checks';
import { usePages } from './support/pages';
import { seedUser } from './support/server';

const member = seedUser('user', { name: 'Una User' });
const env = useServerAndBrowser({ users: [member] });
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-contact';
mkdirSync(SHOTS, { recursive: true });

const openAs = usePages(env);

/** A page of its own, signed out, at `width` in `colorScheme`. */
const open = (width = 1280, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> =>
  openAs(null, { width, colorScheme });

async function acceptOnTermsPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'I accept this Agreement' }).click();
  await page.waitForURL(`${env.server.url}/`);
}

/** Root on /terms, past the current agreement (accepting it first if a test before published one). */
async function rootOnTerms(page: Page): Promise<void> {
  await signInAsRoot(page, env.server.url);
  await page.goto(`${env.server.url}/terms`);
  const accept = page.getByRole('button', { name: 'I accept this Agreement' });
  const versions = page.getByTestId('agreement-versions');
  await accept.or(versions).first().waitFor();
  if (await accept.isVisible()) {
    await acceptOnTermsPage(page);
    await page.goto(`${env.server.url}/terms`);
  }
  await versions.getByTestId('agreement-version').first().waitFor();
}

describe('agreement versions (issue 18)', () => {
  it('a new version, sanitised, forces a signed-in user to accept it at their next navigation', async () => {
    const user = await open();
    await signIn(user, env.server.url, member);
    await user.goto(`${env.server.url}/`);
    await user.getByTestId('nav-drawer').waitFor();
    expect(user.url()).toBe(`${env.server.url}/`);

    const root = await open();
    await rootOnTerms(root);
    const section = root.getByTestId('agreement-versions');
    const before = await section.getByTestId('agreement-version').count();
    const marker = randomUUID().slice(0, 8);
    await section.getByRole('button', { name: 'Start from the current version' }).click();
    expect(await section.getByLabel('Agreement HTML').inputValue()).toContain('Tessera Terms of Use');
    await section
      .getByLabel('Agreement HTML')
      .fill(
        `<h2>Tessera Terms of Use</h2><p id="v">Version ${marker}.</p><script>window.pwned = 1</script>` +
          `<p onclick="window.pwned = 2"><a href="javascript:window.pwned=3">A link</a> and <img src=x onerror="window.pwned=4"></p>`,
      );
    await section.getByRole('button', { name: 'Publish new version' }).click();
    await root.getByRole('button', { name: 'Publish', exact: true }).click();
    await root.getByTestId('alert-stack').getByText('Agreement Published').waitFor();
    // The publisher too must accept it: the page now shows it with the accept button.
    await root.getByRole('button', { name: 'I accept this Agreement' }).waitFor();
    await root.getByTestId('agreement').getByText(`Version ${marker}.`).waitFor();
    await root.screenshot({ path: `${SHOTS}/agreements-published-1280-light.png`, fullPage: true });

    // The user's next navigation (a link in the drawer) lands on the new version.
    await user.getByTestId('nav-drawer').getByRole('link', { name: 'Usage' }).click();
    await user.waitForURL(`${env.server.url}/terms`);
    const agreement = user.getByTestId('agreement');
    await agreement.getByText(`Version ${marker}.`).waitFor();
    const html = await agreement.innerHTML();
    expect(html).not.toMatch(/script|onclick|onerror|javascript:|<img/i);
    expect(await user.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await user.getByRole('link', { name: 'A link' }).or(agreement.getByText('A link')).first().waitFor();
    await user.screenshot({ path: `${SHOTS}/agreements-user-must-accept-1280-light.png`, fullPage: true });
    expect((await callApi(user, 'GET', '/v2/version')).status).toBe(451);
    await acceptOnTermsPage(user);
    expect((await callApi(user, 'GET', '/v2/version')).status).toBe(200);

    // Root accepts as well, and sees the new version counted with both acceptances.
    await acceptOnTermsPage(root);
    await root.goto(`${env.server.url}/terms`);
    const rows = root.getByTestId('agreement-versions').getByTestId('agreement-version');
    await expect.poll(() => rows.count()).toBe(before + 1);
    const newest = rows.first();
    expect(await newest.textContent()).toContain('Current');
    expect((await newest.locator('td').nth(2).textContent())?.trim()).toBe('2');
    await newest.getByRole('button', { name: 'Who accepted' }).click();
    const who = root.getByTestId('agreement-acceptances');
    await who.getByText('accepted by 2 users').waitFor();
    expect(await who.textContent()).toContain(member.email);
    await root.screenshot({ path: `${SHOTS}/agreements-acceptances-1280-light.png`, fullPage: true });
  });

  it('refuses markup with no text left after sanitising, on the field', async () => {
    const root = await open();
    await rootOnTerms(root);
    const section = root.getByTestId('agreement-versions');
    await section.getByLabel('Agreement HTML').fill('<script>alert(1)</script>');
    await section.getByRole('button', { name: 'Publish new version' }).click();
    await root.getByRole('button', { name: 'Publish', exact: true }).click();
    await section
      .getByText('The agreement has no text left once scripts and unsafe markup are removed.')
      .first()
      .waitFor();
    // Nothing was published: root is still past the gate.
    expect((await callApi(root, 'GET', '/v2/version')).status).toBe(200);
  });

  it('is not shown below super', async () => {
    const user = await open();
    await signIn(user, env.server.url, member);
    await user.goto(`${env.server.url}/terms`);
    await user.getByText(/^You accepted this agreement on /).waitFor();
    expect(await user.getByTestId('agreement-versions').count()).toBe(0);
    expect((await callApi(user, 'GET', '/v2/terms/versions')).status).toBe(403);
  });

  for (const width of [1280, 390]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`passes WCAG 2.1 AA at ${width} px in ${colorScheme}`, async () => {
        const root = await open(width, colorScheme);
        await rootOnTerms(root);
        await root.getByTestId('agreement-version').first().getByRole('button', { name: 'Who accepted' }).click();
        await root.getByTestId('agreement-acceptances').waitFor();
        expect(await axeViolations(root)).toEqual([]);
        await root.screenshot({ path: `${SHOTS}/agreements-${width}-${colorScheme}.png`, fullPage: true });
      });
    }
  }
});
