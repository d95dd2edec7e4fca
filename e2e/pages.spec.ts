import { describe, expect, it } from 'vitest';
import { newPage, signInAsRoot, useServerAndBrowser } from './support/browser';
import { releaseAndDeployment } from './support/releases';
import { ROOT } from './support/server';

const env = useServerAndBrowser();

/** Every route of spec §2 with a concrete path and the title its page must have. */
const SIGNED_IN_TITLES: [string, string][] = [
  ['/', 'Home'],
  ['/playground', 'Playground'],
  ['/profile', 'Profile'],
  ['/password/set', 'Set Password'],
  ['/password/change', 'Change Password'],
  ['/password/reset', 'Reset Password'],
  ['/billing', 'Billing'],
  ['/segments', 'Segments'],
  ['/clusters', 'Clusters'],
  ['/query', 'Query'],
  ['/ssh', 'SSH'],
  ['/contracts/1', 'Contract'],
  ['/contracts/edit/1', 'Contract'],
  ['/releases', 'Releases'],
  ['/releases/2', 'Release'],
  ['/releases/publish/2', 'Release'],
  ['/deployments', 'Deployments'],
  ['/deployments/3', 'Deployment'],
  ['/deployments/delete/3', 'Deployment'],
  ['/sessions', 'Sessions'],
  ['/terms', 'Terms of Use'],
  ['/organizations', 'Organizations'],
  // Root is user 1 on a fresh database; organization pages of real records are walked in console.spec.ts.
  ['/organizations/add', 'Organizations'],
  ['/users/1', 'User'],
  ['/users/edit/1', 'User'],
  ['/users/add', 'User'],
  ['/keys/7', 'API Key'],
  ['/keys/edit/7', 'API Key'],
  ['/templates', 'Templates'],
  ['/templates/add', 'Templates'],
  ['/templates/edit/8', 'Templates'],
  ['/usage', 'Usage'],
  ['/jobs', 'Bulk Jobs'],
  ['/subscriptions', 'Subscriptions'],
];

const PUBLIC_TITLES: [string, string][] = [
  ['/login', 'Sign in'],
  ['/signup', 'Sign Up'],
  ['/password/forgot', 'Forgot Password'],
  ['/api', 'API Reference'],
  ['/client', 'Client Libraries'],
  ['/faq', 'Frequently Asked Questions'],
  ['/scoring', 'Match Scores Explained'],
  ['/contact', 'Contact Us'],
  ['/chat', 'Support Chat'],
];

const ERROR_PAGES: [string, string, string][] = [
  ['/error', 'Page Not Found', "We're sorry! The page you're looking for does not exist."],
  ['/error/400', 'Bad Request', "We're sorry! An error has occurred. Please try again later."],
  ['/error/401', 'Unauthorized', "We're sorry! An error has occurred. Please try again later."],
  ['/error/402', 'Payment Error', "We're sorry! An error has occurred. Please try again later."],
  ['/error/403', 'Forbidden', "We're sorry! You do not have permission to access the page you requested."],
  ['/error/404', 'Page Not Found', "We're sorry! The page you're looking for does not exist."],
  ['/error/409', 'Conflict Error', "We're sorry! An error has occurred. Please try again later."],
  ['/error/451', 'Legal Notice', "We're sorry! An error has occurred. Please try again later."],
  ['/error/500', 'Server Error', "We're sorry! An error has occurred. Please try again later."],
  ['/error/418', 'Error', "We're sorry! An error has occurred. Please try again later."],
  ['/error/409/That%20name%20is%20taken.', 'Conflict Error', 'That name is taken.'],
];

describe('titles', () => {
  it('every signed-in route of spec §2 has its title', async () => {
    const { context, page } = await newPage(env.browser);
    await signInAsRoot(page, env.server.url);
    // Key pages show a real key (their ids are 16 letters and digits, not numbers).
    const keyId = await page.evaluate(async () => {
      const res = await fetch('/v2/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: JSON.stringify({ name: 'Titles' }),
      });
      return Object.keys(((await res.json()) as { keys: Record<string, unknown> }).keys)[0]!;
    });
    // So do template pages: a template that does not exist is sent to /error/404 once the page has asked.
    const templateId = await page.evaluate(async () => {
      const res = await fetch('/v2/templates', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: JSON.stringify({ name: 'Titles', expression: '{ "id": id }' }),
      });
      return Object.keys(((await res.json()) as { templates: Record<string, unknown> }).templates)[0]!;
    });
    // Contract pages show a real one too: a contract of an organization there is (a new one only when there is
    // none, since /organizations/edit/4 below must stay unknown).
    const contractId = await page.evaluate(async () => {
      const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
      const list = (await (await fetch('/v2/organizations', { headers })).json()) as { organizations: object };
      const org = Object.keys(list.organizations)[0]
        ? list
        : ((await (
            await fetch('/v2/organizations', { method: 'POST', headers, body: JSON.stringify({ name: 'Titles' }) })
          ).json()) as { organizations: object });
      const organizationId = Number(Object.keys(org.organizations)[0]);
      const res = await fetch('/v2/contracts', {
        method: 'POST',
        headers,
        body: JSON.stringify({ organizationId, startsAt: '2026-01-01T00:00:00Z', endsAt: '2027-01-01T00:00:00Z' }),
      });
      return Object.keys(((await res.json()) as { contracts: Record<string, unknown> }).contracts)[0]!;
    });
    // Release and deployment pages show real ones too: a draft release of HEAD, and a finished deployment.
    const { releaseId, deploymentId } = await releaseAndDeployment(page);
    for (const [template, title] of SIGNED_IN_TITLES) {
      const path = template
        .replace(/^\/contracts\/(edit\/)?1$/, `/contracts/$1${contractId}`)
        .replace(/^\/keys\/(edit\/)?7$/, `/keys/$1${keyId}`)
        .replace(/^\/templates\/edit\/8$/, `/templates/edit/${templateId}`)
        .replace(/^\/releases\/(publish\/)?2$/, `/releases/$1${releaseId}`)
        .replace(/^\/deployments\/(delete\/)?3$/, `/deployments/$1${deploymentId}`);
      await page.goto(`${env.server.url}${path}`);
      await expect.poll(() => page.title(), { message: path }).toBe(`Tessera - ${title}`);
      expect(new URL(page.url()).pathname, path).toBe(path);
    }
    await context.close();
  });

  it('every public route has its title', async () => {
    const { context, page } = await newPage(env.browser);
    for (const [path, title] of PUBLIC_TITLES) {
      await page.goto(`${env.server.url}${path}`);
      await expect.poll(() => page.title(), { message: path }).toBe(`Tessera - ${title}`);
    }
    await context.close();
  });
});

describe('error pages', () => {
  it.each(ERROR_PAGES)('%s shows "%s" and its message', async (path, title, message) => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}${path}`);
    await expect.poll(() => page.title()).toBe(`Tessera - ${title}`);
    await page.getByTestId('page-title').getByText(title, { exact: true }).waitFor();
    await page.getByText(message, { exact: true }).waitFor();
    await context.close();
  });

  it.each([
    { path: '/error/999', code: '999' },
    { path: '/error/99', code: '99' },
    { path: '/error/abc', code: null },
    { path: '/error/abc/Something%20broke.', code: null, message: 'Something broke.' },
  ])(
    "$path: a code the spec does not name shows 'Error' and the generic message, with the code only if it is a number",
    async ({ path, code, message }) => {
      const { context, page } = await newPage(env.browser);
      await page.goto(`${env.server.url}${path}`);
      await expect.poll(() => page.title()).toBe('Tessera - Error');
      await page.getByTestId('page-title').getByText('Error', { exact: true }).waitFor();
      await page
        .getByText(message ?? "We're sorry! An error has occurred. Please try again later.", { exact: true })
        .waitFor();
      const main = page.getByRole('main');
      expect(await main.getByText('Page Not Found').count()).toBe(0);
      expect(await main.getByText('404', { exact: true }).count()).toBe(0);
      if (code) expect(await main.getByText(code, { exact: true }).count()).toBe(1);
      else expect(await main.getByText(/^\d+$/).count()).toBe(0);
      await context.close();
    },
  );

  it.each([
    '/no/such/page',
    '/users/abc',
    '/users/404',
    '/organizations/edit/4',
    '/templates/rename/3',
    '/keys/edit/x',
  ])('%s shows Page Not Found', async (path) => {
    const { context, page } = await newPage(env.browser);
    await signInAsRoot(page, env.server.url);
    await page.goto(`${env.server.url}${path}`);
    await expect.poll(() => page.title()).toBe('Tessera - Page Not Found');
    await page.getByText("We're sorry! The page you're looking for does not exist.").waitFor();
    await context.close();
  });
});

describe('guards and sign-in', () => {
  it('sends an anonymous visitor of a guarded page to /login', async () => {
    const { context, page } = await newPage(env.browser);
    for (const path of ['/', '/usage', '/releases', '/users/3?tab=keys']) {
      await page.goto(`${env.server.url}${path}`);
      await page.waitForURL(/\/login/);
      const url = new URL(page.url());
      expect(url.pathname).toBe('/login');
      // The page to return to after signing in rides along (none for the home page).
      expect(url.searchParams.get('returnTo')).toBe(path === '/' ? null : path);
    }
    await context.close();
  });

  it('signs in through the form and lands on Home with the menu', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/login`);
    await page.getByLabel('Email').fill(ROOT.email);
    await page.getByLabel('Password', { exact: true }).fill(ROOT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${env.server.url}/`);
    await expect.poll(() => page.title()).toBe('Tessera - Home');
    await page.getByTestId('nav-drawer').getByText('Organizations').waitFor();
    await context.close();
  });

  it('shows the error alert for a wrong password and stays on /login', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/login`);
    await page.getByLabel('Email').fill(ROOT.email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-passw0rd!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('alert-stack').getByText('The email or password is incorrect.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });
});
