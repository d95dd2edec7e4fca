/**
 * Accounts by e-mail in Chromium with real mail (spec §2 Sign up, Password, Terms; §4; §8; decision 0005): sign
 * up with a work address, verify it from the mail that arrives over SMTP, set a password, accept the agreement;
 * and forgot → reset → sign in with the new password.
 */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, newPage, signInAsRoot, signInWithForm } from './support/browser';
import { useServerWithMail } from './support/mail';
import { seedUser } from './support/server';

const pat = seedUser('user', { name: 'Pat Forgetful' });

const env = useServerWithMail({ users: [pat] });

const NEW_PASSWORD = 'Fresh-passw0rd!';

/** Fills the set/reset form (spec §2 Password) and saves. */
async function savePassword(page: Page, password: string) {
  await page.getByLabel('New Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm New Password').fill(password);
  await page.getByRole('button', { name: 'Save Password' }).click();
}

const alerts = (page: Page) => page.getByTestId('alert-stack');

describe('sign-up with a work e-mail (spec §2 Sign up)', () => {
  it('verifies the address by mail, sets a password, accepts the agreement and lands on Home in the organization', async () => {
    // Root makes an organization accepting its domain.
    const admin = await newPage(env.browser);
    await signInAsRoot(admin.page, env.server.url);
    const created = await callApi(admin.page, 'POST', '/v2/organizations', {
      name: 'Acme Widgets',
      emailDomain: 'acme-widgets.example',
      acceptUsers: true,
    });
    expect(created.status).toBe(200);
    await admin.context.close();

    const email = 'grace@acme-widgets.example';
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/login`);
    await page.getByRole('link', { name: 'Sign Up' }).click();
    await page.waitForURL(`${env.server.url}/signup`);
    await page.getByTestId('signup-status').getByText(ACCOUNT_MESSAGES.workEmail).waitFor();
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Email').blur();
    await page.getByTestId('signup-status').getByText(ACCOUNT_MESSAGES.organizationAccepts('Acme Widgets')).waitFor();
    await page.getByRole('button', { name: 'Verify email' }).click();
    const sent = page.getByTestId('signup-sent');
    await sent.getByText(ACCOUNT_MESSAGES.signupSent.title).waitFor();
    await sent.getByText(email).waitFor();

    const mail = await env.mailbox.nextMail(email);
    expect(mail.subject).toBe('Verify your email for Tessera');
    // The name was typed by someone who has not yet proven the address: the mail greets nobody by it.
    expect(mail.text).toContain('Hello,');
    expect(mail.text).not.toContain('Grace Hopper');
    expect(mail.link.startsWith(`${env.server.url}/password/set?token=`)).toBe(true);

    await page.goto(mail.link);
    await expect.poll(() => page.title()).toBe('Tessera - Set Password');
    // The token leaves the address bar once the page has exchanged it.
    await expect.poll(() => page.url()).toBe(`${env.server.url}/password/set`);
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(email);
    await savePassword(page, NEW_PASSWORD);

    // Setting the password signs them in (decision 0005): on to the agreement, told it worked, not signed out.
    await page.waitForURL(`${env.server.url}/terms`);
    await alerts(page).getByText(ACCOUNT_MESSAGES.passwordUpdated.title).waitFor();
    expect(await alerts(page).textContent()).not.toContain('Signed Out');
    await page.getByRole('button', { name: 'I accept this Agreement' }).click();
    await page.waitForURL(`${env.server.url}/`);
    await page.getByText('Signed in as Grace Hopper (Organization User, Acme Widgets).').waitFor();
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({
      body: { self: { email, role: 'user', organizationName: 'Acme Widgets' } },
    });
    await context.close();

    // The password works from now on.
    const again = await newPage(env.browser);
    await signInWithForm(again.page, env.server.url, { email, password: NEW_PASSWORD });
    await again.page.waitForURL(`${env.server.url}/`);
    await again.context.close();
  });

  it('keeps Verify email disabled for an address whose domain nobody accepts', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/signup`);
    await page.getByLabel('Name').fill('Stray');
    await page.getByLabel('Email').fill('stray@nobody-accepts.example');
    await page.getByLabel('Email').blur();
    await page
      .getByTestId('signup-status')
      .getByText(ACCOUNT_MESSAGES.noAcceptingOrganization('nobody-accepts.example'))
      .waitFor();
    expect(await page.getByRole('button', { name: 'Verify email' }).isDisabled()).toBe(true);
    await context.close();
  });
});

describe('forgotten password (spec §2 Password, §4)', () => {
  it('sends a reset link by mail that sets a new password, after which only the new one signs in', async () => {
    const { context, page } = await newPage(env.browser);
    await page.goto(`${env.server.url}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect.poll(() => page.title()).toBe('Tessera - Forgot Password');
    await page.getByLabel('Email').fill(pat.email);
    await page.getByRole('button', { name: 'Get a Reset Link' }).click();
    await page.waitForURL(`${env.server.url}/login`);
    const requested = ACCOUNT_MESSAGES.resetRequested(pat.email);
    await alerts(page).getByText(requested.title).waitFor();
    await alerts(page).getByText(requested.text, { exact: false }).waitFor();

    const mail = await env.mailbox.nextMail(pat.email);
    expect(mail.subject).toBe('Reset your Tessera password');
    expect(mail.link.startsWith(`${env.server.url}/password/reset?token=`)).toBe(true);

    await page.goto(mail.link);
    await expect.poll(() => page.title()).toBe('Tessera - Reset Password');
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(pat.email);
    await savePassword(page, NEW_PASSWORD);
    // A reset signs nobody in: back to /login, told it worked.
    await page.waitForURL((url) => url.pathname === '/login');
    await alerts(page).getByText(ACCOUNT_MESSAGES.passwordUpdated.title).waitFor();
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({ body: { self: { id: 0 } } });

    // The old password no longer signs in; the new one does.
    await page.getByLabel('Email').fill(pat.email);
    await page.getByLabel('Password', { exact: true }).fill(pat.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await alerts(page).getByText('The email or password is incorrect.').waitFor();
    await signInWithForm(page, env.server.url, { email: pat.email, password: NEW_PASSWORD });
    await page.waitForURL(`${env.server.url}/`);
    await context.close();

    // The link was spent by its first use.
    const later = await newPage(env.browser);
    await later.page.goto(mail.link);
    await later.page.getByTestId('link-problem').getByText(ACCOUNT_MESSAGES.linkExpired).waitFor();
    await later.context.close();
  });
});
