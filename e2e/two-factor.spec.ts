/**
 * Two-factor sign-in in Chromium (issue 32 item 9, decision 0063): turning it on from the profile (QR code, the
 * secret as text, the first code computed from that text with otplib as an authenticator app would, recovery codes
 * shown once), then signing in with a code, or a recovery code, after the password; staff sent to turn it on
 * under REQUIRE_2FA_FOR_STAFF; an outside sign-in held to the code step. Each state that appears only on an event
 * (the set-up dialog, the recovery codes, the code step with an error) is checked in light and dark, wide and
 * narrow, with axe-core. Also the provider buttons in dark mode (issue 32 item 11).
 */
import { TWO_FACTOR_MESSAGES } from '@tessera/common/two-factor';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi } from './support/browser';
import { fieldError } from './support/forms';
import { useServerWithIssuer } from './support/oidc';
import { axeViolations } from './support/page-checks';
import { usePages } from './support/pages';
import { type Account, seedUser } from './support/server';
import { STATE_VIEWS, type StateView, stateProblems, viewName, viewOptions } from './support/state-checks';

const people = STATE_VIEWS.map(() => seedUser('user', { name: 'Tia Twofactor' }));
const recoverer = seedUser('user', { name: 'Rae Recovery' });
const staff = seedUser('super', { name: 'Sam Staff' });
const outsider = seedUser('user', { name: 'Gus Google' });

const env = useServerWithIssuer(['google'], {
  users: [...people, recoverer, staff, outsider],
  env: {
    REQUIRE_2FA_FOR_STAFF: 'true',
    // Set up but never reached: their buttons show (the logos' contrast is checked in dark mode).
    OAUTH_MICROSOFT_CLIENT_ID: 'tessera-microsoft',
    OAUTH_MICROSOFT_CLIENT_SECRET: 'secret',
    OAUTH_MICROSOFT_ISSUER: 'http://127.0.0.1:9',
    OAUTH_GITHUB_CLIENT_ID: 'tessera-github',
    OAUTH_GITHUB_CLIENT_SECRET: 'secret',
    OAUTH_GITHUB_ISSUER: 'https://github.com',
  },
});
const openAs = usePages(env);

/** The code an authenticator app shows for the step `offset` steps from now. */
const codeFor = (secret: string, offset = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

/** Waits out the last seconds of a 30-second step, so one step's codes stay right for the few actions that follow. */
async function awayFromStepEdge() {
  const into = (Date.now() / 1000) % 30;
  if (into > 24) await new Promise((resolve) => setTimeout(resolve, (30 - into + 0.3) * 1000));
}

async function passwordStep(page: Page, account: Account) {
  await page.goto(`${env.server.url}/login`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Turns it on from the profile, as a person does; returns the secret read off the page and the recovery codes. */
async function enrol(page: Page, view: StateView | null, problems: string[]) {
  await page.goto(`${env.server.url}/profile`);
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
  await dialog.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
  const secret = ((await dialog.getByTestId('two-factor-secret').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  if (view) problems.push(...(await stateProblems(page, 'Two-factor set-up dialog', view)));
  await awayFromStepEdge();
  await dialog.getByLabel('Code from the app').fill(await codeFor(secret));
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('dialog', { name: 'Save your recovery codes' });
  await codes.getByTestId('recovery-codes').waitFor();
  const recoveryCodes = await codes.getByRole('listitem').allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  if (view) problems.push(...(await stateProblems(page, 'Recovery codes', view)));
  await codes.getByRole('button', { name: 'Done' }).click();
  await expect.poll(() => page.getByTestId('two-factor-status').textContent()).toContain('10 of 10 recovery codes');
  return { secret, recoveryCodes };
}

describe('two-factor sign-in (issue 32 item 9)', () => {
  for (const [i, view] of STATE_VIEWS.entries()) {
    it(`turns on from the profile and signs in with the app's code, ${viewName(view)}, axe clean`, async () => {
      const person = people[i]!;
      const problems: string[] = [];
      const page = await openAs(null, viewOptions(view));
      await passwordStep(page, person);
      await page.waitForURL(`${env.server.url}/`);
      const { secret } = await enrol(page, view, problems);

      // Another browser: the password, then the code.
      const page2 = await openAs(null, viewOptions(view));
      await signInWithCode(page2, person, secret, view, problems);
      expect(problems).toEqual([]);
    });
  }

  async function signInWithCode(page: Page, person: Account, secret: string, view: StateView, problems: string[]) {
    await passwordStep(page, person);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await callApi(page, 'GET', '/v2/self')).body).toMatchObject({ self: { id: 0 } });
    // A wrong code shows on its field.
    await page.getByLabel('Authentication code').fill('000000' === (await codeFor(secret, 1)) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => fieldError(page, 'Authentication code')).toBe(TWO_FACTOR_MESSAGES.wrongCode);
    problems.push(...(await stateProblems(page, 'Sign-in code step with an error', view)));
    // The enrolment's step is spent; the next step's code (one step of drift) signs in.
    await page.getByLabel('Authentication code').fill(await codeFor(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${env.server.url}/`);
    expect((await callApi(page, 'GET', '/v2/self')).body).toMatchObject({ self: { email: person.email } });
  }

  it('signs in with a recovery code instead, each working once', async () => {
    const page = await openAs(null);
    await passwordStep(page, recoverer);
    await page.waitForURL(`${env.server.url}/`);
    const { recoveryCodes } = await enrol(page, null, []);
    for (const attempt of ['first', 'again']) {
      const other = await openAs(null);
      await passwordStep(other, recoverer);
      await other.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await other.getByLabel('Recovery code').fill(recoveryCodes[0]!);
      await other.getByRole('button', { name: 'Verify' }).click();
      if (attempt === 'first') await other.waitForURL(`${env.server.url}/`);
      else await expect.poll(() => fieldError(other, 'Recovery code')).toBe(TWO_FACTOR_MESSAGES.usedRecoveryCode);
    }

    // Lost the device and the codes: root resets it from the user's page, after a confirmation (axe clean). Root is
    // staff, so under REQUIRE_2FA_FOR_STAFF turns it on first (by the API here; the profile's way is tested above).
    const self = (await callApi(page, 'GET', '/v2/self')).body as { self: { id: number } };
    const root = await openAs('root');
    const enrolled = await callApi(root, 'POST', '/auth/two-factor/enrol');
    const rootSecret = (enrolled.body as { enrolment: { secret: string } }).enrolment.secret;
    await awayFromStepEdge();
    expect((await callApi(root, 'POST', '/auth/two-factor/confirm', { code: await codeFor(rootSecret) })).status).toBe(
      200,
    );
    const problems: string[] = [];
    for (const view of STATE_VIEWS) {
      await root.setViewportSize({ width: view.width, height: 800 });
      await root.emulateMedia({ colorScheme: view.theme });
      await root.goto(`${env.server.url}/users/${self.self.id}`);
      await expect.poll(() => twoFactorRow(root)).toMatch(/^On since /);
      await root.getByRole('button', { name: 'Reset Two-Factor' }).click();
      await root.getByRole('dialog', { name: 'Reset Two-Factor Sign-In' }).waitFor();
      problems.push(...(await stateProblems(root, 'Reset two-factor dialog', view)));
      if (view !== STATE_VIEWS.at(-1)) await root.getByRole('button', { name: 'Cancel' }).click();
      else {
        await root.getByRole('button', { name: 'Reset', exact: true }).click();
        await expect.poll(() => twoFactorRow(root)).toBe('Off');
        expect(await root.getByRole('button', { name: 'Reset Two-Factor' }).count()).toBe(0);
      }
    }
    expect(problems).toEqual([]);
    // The password alone signs them in again.
    const after = await openAs(null);
    await passwordStep(after, recoverer);
    await after.waitForURL(`${env.server.url}/`);
  });

  /** The "Two-factor sign-in" line of a user's details, as root sees it. */
  const twoFactorRow = (page: Page) =>
    page.locator('dt', { hasText: 'Two-factor sign-in' }).locator('xpath=following-sibling::dd[1]').textContent();

  it('sends staff without it to turn it on before anything else (REQUIRE_2FA_FOR_STAFF)', async () => {
    const page = await openAs(null);
    await passwordStep(page, staff);
    await page.waitForURL((url) => url.pathname === '/profile');
    await page.getByRole('dialog', { name: 'Turn on two-factor sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('two-factor-required').getByText(TWO_FACTOR_MESSAGES.required).waitFor();
    expect((await callApi(page, 'GET', '/v2/organizations')).status).toBe(403);
    // Anywhere else leads back here, the set-up open.
    await page.goto(`${env.server.url}/organizations`);
    await page.waitForURL((url) => url.pathname === '/profile');
    const dialog = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
    await dialog.getByTestId('two-factor-secret').waitFor();
    const secret = ((await dialog.getByTestId('two-factor-secret').textContent()) ?? '').replace(/\s+/g, '');
    await dialog.getByLabel('Code from the app').fill(await codeFor(secret));
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('dialog', { name: 'Save your recovery codes' }).getByRole('button', { name: 'Done' }).click();
    expect((await callApi(page, 'GET', '/v2/organizations')).status).toBe(200);
    await page.goto(`${env.server.url}/organizations`);
    await expect.poll(() => page.title()).toBe('Tessera - Organizations');
  });

  it('asks for the code after an outside sign-in too', async () => {
    const page = await openAs(null);
    await passwordStep(page, outsider);
    await page.waitForURL(`${env.server.url}/`);
    const { secret } = await enrol(page, null, []);
    const other = await openAs(null);
    env.issuer.person({ email: outsider.email, email_verified: true, name: outsider.name });
    await other.goto(`${env.server.url}/login`);
    await other.getByRole('link', { name: 'Sign in with Google' }).click();
    await other.getByRole('link', { name: `Continue as ${outsider.email}` }).click();
    await other.waitForURL((url) => url.pathname === '/login' && url.origin === env.server.url);
    await other.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    expect((await callApi(other, 'GET', '/v2/self')).body).toMatchObject({ self: { id: 0 } });
    await other.getByLabel('Authentication code').fill(await codeFor(secret, 1));
    await other.getByRole('button', { name: 'Verify' }).click();
    await other.waitForURL(`${env.server.url}/`);
    expect((await callApi(other, 'GET', '/v2/self')).body).toMatchObject({ self: { email: outsider.email } });
  });
});

describe('provider logos (issue 32 item 11)', () => {
  /** WCAG relative luminance contrast of two `rgb(...)` colours. */
  function contrast(a: string, b: string): number {
    const lum = (c: string) => {
      const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
        const s = Number(v) / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
    };
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x! + 0.05) / (y! + 0.05);
  }

  for (const view of STATE_VIEWS) {
    it(`shows only the configured providers, each logo at 3:1 or more, ${viewName(view)}`, async () => {
      const page = await openAs(null, viewOptions(view));
      for (const path of ['/login', '/signup']) {
        await page.goto(`${env.server.url}${path}`);
        const buttons = page.getByTestId('provider-buttons').getByRole('link');
        await expect
          .poll(() => buttons.allTextContents())
          .toEqual(
            ['Google', 'Microsoft', 'GitHub'].map((n) => `${path === '/login' ? 'Sign in' : 'Sign up'} with ${n}`),
          );
        for (const button of await buttons.all()) {
          const [logo, paper] = await button.evaluate((el) => {
            let node: Element | null = el;
            let bg = 'rgba(0, 0, 0, 0)';
            while (node && /rgba\(0, 0, 0, 0\)|transparent/.test(bg)) {
              bg = getComputedStyle(node).backgroundColor;
              node = node.parentElement;
            }
            return [getComputedStyle(el.querySelector('svg')!).color, bg];
          });
          expect(contrast(logo, paper), `${await button.textContent()} on ${paper}`).toBeGreaterThanOrEqual(3);
        }
        expect(await axeViolations(page)).toEqual([]);
        const dir = process.env.SCREENSHOT_DIR;
        if (dir)
          await page.screenshot({ path: `${dir}/providers${path.replace('/', '-')}-${view.theme}-${view.width}.png` });
      }
      // The one not set up: its start route is a 404 naming it.
      const res = await fetch(`${env.server.url}/oauth/linkedin`, { redirect: 'manual' });
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe(
        'Sign-in with LinkedIn is not set up on this server. Use your email and password.',
      );
    });
  }
});
