/**
 * The agreement gate in the browser (spec §2 Terms, §4, §8 451), and no dead end on the Terms page (issue 32 item
 * 3): a Terms Signer can sign out and decline (decline = sign out without accepting, decision 0060); one who has
 * accepted reads when, with a way on; the page passes WCAG 2.1 AA in each state, light and dark, wide and narrow.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, signInWithForm, useServerAndBrowser } from './support/browser';
import { usePages } from './support/pages';
import { ROOT, seedUser } from './support/server';
import { checkStateInViews, viewOptions } from './support/state-checks';

const sam = seedUser('user', { name: 'Sam Signer', signer: true });
const dee = seedUser('admin', { name: 'Dee Decliner', signer: true });
const env = useServerAndBrowser({ acceptTerms: false, users: [sam, dee] });
const openAs = usePages(env);

async function onTermsAsSigner(page: Page, account: { email: string; password: string }) {
  await signInWithForm(page, env.server.url, account);
  await page.waitForURL(`${env.server.url}/terms`);
  await page.getByTestId('agreement').waitFor();
}

describe('terms (spec §2)', () => {
  it('sends a new user from sign-in to the agreement, keeps guarded pages behind it, and lets them in once accepted', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/usage`);
    await page.waitForURL(`${env.server.url}/login?returnTo=%2Fusage`);
    await page.getByLabel('Email').fill(ROOT.email);
    await page.getByLabel('Password', { exact: true }).fill(ROOT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${env.server.url}/terms`);
    await expect.poll(() => page.title()).toBe('Tessera - Terms of Use');
    await page.getByText('Welcome!').waitFor();
    await page.getByTestId('agreement').getByText('Tessera Terms of Use').waitFor();

    await page.goto(`${env.server.url}/templates`);
    await page.waitForURL(`${env.server.url}/terms`);

    await page.getByRole('button', { name: 'I accept this Agreement' }).click();
    await page.waitForURL(`${env.server.url}/`);
    await expect.poll(() => page.title()).toBe('Tessera - Home');
    await page.getByTestId('nav-drawer').getByText('Organizations').waitFor();

    // Back on the page: when they accepted, and the way on (issue 32 item 3).
    await page.goto(`${env.server.url}/terms`);
    const accepted = page.getByTestId('terms-accepted');
    await accepted
      .getByText(/^You accepted this agreement on \d{1,2}\/\d{1,2}\/\d{2} \d{1,2}:\d{2}(am|pm)\.$/)
      .waitFor();
    expect(await page.getByText('You can use Tessera once you have accepted it.').count()).toBe(0);
    await accepted.getByRole('link', { name: 'Continue to the console' }).click();
    await page.waitForURL(`${env.server.url}/`);
    await context.close();
  });

  it('returns a visitor to the page they wanted after signing in', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/templates?sort=name`);
    await page.waitForURL(/\/login\?returnTo=/);
    await page.getByLabel('Email').fill(ROOT.email);
    await page.getByLabel('Password', { exact: true }).fill(ROOT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${env.server.url}/templates?sort=name`);
    await context.close();
  });
});

describe('no dead end on the Terms page (issue 32 item 3)', () => {
  it('gives a Terms Signer, who has no user menu, a Sign Out button that signs them out', async () => {
    const { context, page } = await newPage(env.browser);
    await onTermsAsSigner(page, sam);
    expect(await page.getByRole('button', { name: 'User menu' }).count()).toBe(0);
    await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${env.server.url}/login`);
    // The server ended the session: the agreement is out of reach.
    const terms = await page.evaluate(() =>
      fetch('/v2/terms', { headers: { accept: 'application/json' } }).then((r) => r.status),
    );
    expect(terms).toBe(401);
    await context.close();
  });

  it('lets a Terms Signer decline: signed out without accepting, told so, and asked again at the next sign-in', async () => {
    const { context, page } = await newPage(env.browser);
    await onTermsAsSigner(page, dee);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(`${env.server.url}/login`);
    const notice = page.getByTestId('alert-stack').getByRole('alert');
    await notice.getByText('Agreement Declined').waitFor();
    await notice.getByText('You have been signed out. Sign in again when you want to accept the agreement.').waitFor();
    const self = await page.evaluate(() => fetch('/v2/self').then((r) => r.json()));
    expect(self).toMatchObject({ self: { id: 0, role: 'anonymous' } });

    await onTermsAsSigner(page, dee);
    await page.getByRole('button', { name: 'I accept this Agreement' }).waitFor();
    await context.close();
  });

  it('passes WCAG 2.1 AA as a signer and once accepted, light and dark, wide and narrow', async () => {
    const problems = await checkStateInViews(
      'terms as a signer',
      async (view) => openAs(null, viewOptions(view)),
      async (page) => {
        await onTermsAsSigner(page, sam);
        await page.getByRole('button', { name: 'Decline' }).waitFor();
      },
    );
    problems.push(
      ...(await checkStateInViews(
        'terms accepted',
        async (view) => openAs('root', viewOptions(view)),
        async (page) => {
          await page.goto(`${env.server.url}/terms`);
          await page.getByRole('link', { name: 'Continue to the console' }).waitFor();
        },
      )),
    );
    expect(problems).toEqual([]);
  });
});
