/**
 * Changing the password from the profile (spec §2 Password 'change', §4 session and password transitions, §8
 * 'Password Updated'), and the profile's own-sessions list: the same person signed in in two browsers; a change
 * in one keeps that one signed in and signs the other out, which hears it over its socket.
 */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { SIGNED_OUT_ALERT } from '@tessera/common/alerts';
import { LOGIN_FAILED } from '@tessera/server/features/auth/service';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, cookieHeader, newPage, signInWithForm, useServerAndBrowser } from './support/browser';
import { field, fieldError } from './support/forms';
import { type Account, seedUser } from './support/server';
import { type SocketWatch, watchSocket } from './support/socket';

const cam = seedUser('user', { name: 'Cam Changer' });
const eve = seedUser('user', { name: 'Eve Everywhere' });

const env = useServerAndBrowser({ users: [cam, eve] });
const idOf = (email: string) => env.server.users.find((u) => u.email === email)!.id;

const NEW_PASSWORD = 'Chang3d-passw0rd!';

/** A call with only the given Cookie header, from outside any browser. */
const statusWith = async (cookie: string) =>
  (await fetch(`${env.server.url}/v2/terms`, { headers: { cookie, accept: 'application/json' } })).status;

const alerts = (page: Page) => page.getByTestId('alert-stack');

/**
 * Another browser (its own context, so its own cookies and session) where `account` is signed in, with a tab
 * on /usage whose socket is subscribed to the user's pushes.
 */
async function otherBrowser(
  browser: Browser,
  account: Account,
  userId: number,
): Promise<{ context: BrowserContext; tab: Page; socket: SocketWatch; cookie: string }> {
  const { context, page } = await newPage(browser);
  await signInWithForm(page, env.server.url, account);
  await page.waitForURL(`${env.server.url}/`);
  const tab = await context.newPage();
  const socket = watchSocket(tab);
  await tab.goto(`${env.server.url}/usage`);
  await expect.poll(() => tab.title()).toBe('Tessera - Usage');
  await socket.subscribedToSelf(userId);
  return { context, tab, socket, cookie: await cookieHeader(context, env.server.url) };
}

/** Waits for the tab to be told its session ended (spec §4) and to leave for /login. */
async function expectSignedOut(tab: Page, socket: SocketWatch) {
  const notice = tab.getByTestId('alert-stack').getByRole('alert');
  await notice.getByText(SIGNED_OUT_ALERT.title).waitFor();
  await notice.getByText(SIGNED_OUT_ALERT.text!).waitFor();
  await tab.waitForURL((url) => url.pathname === '/login');
  expect(socket.received).toContainEqual(['push', { self: expect.objectContaining({ id: 0, role: 'anonymous' }) }]);
}

/** The signed-in user's live sessions, as the server lists them. */
async function mySessions(page: Page) {
  return (await callApi(page, 'GET', '/v2/sessions?mine=true')).body as {
    sessions: Record<string, { current: boolean }>;
  };
}

async function fillPasswordForm(page: Page, current: string, next: string) {
  await field(page, 'Current Password').fill(current);
  await field(page, 'New Password').fill(next);
  await field(page, 'Confirm New Password').fill(next);
  await page.getByRole('button', { name: 'Save Password' }).click();
}

describe('change password (spec §2 Password, §4)', () => {
  it('change password signs out another browser', async () => {
    const a = await newPage(env.browser);
    await signInWithForm(a.page, env.server.url, cam);
    await a.page.waitForURL(`${env.server.url}/`);
    const b = await otherBrowser(env.browser, cam, idOf(cam.email));
    expect(await statusWith(b.cookie)).toBe(200);

    // From the profile's link to the change form.
    await a.page.goto(`${env.server.url}/profile`);
    await expect.poll(() => a.page.title()).toBe('Tessera - Profile');
    await a.page.getByRole('link', { name: 'Change Password' }).click();
    await a.page.waitForURL(`${env.server.url}/password/change`);
    await expect.poll(() => a.page.title()).toBe('Tessera - Change Password');
    expect(await field(a.page, 'Email').inputValue()).toBe(cam.email);
    expect(await field(a.page, 'Email').isEditable()).toBe(false);

    // A wrong current password: the server's reason lands on the field, and nothing changes.
    await fillPasswordForm(a.page, 'Not-the-passw0rd!', NEW_PASSWORD);
    await expect.poll(() => fieldError(a.page, 'Current Password')).toBe(ACCOUNT_MESSAGES.wrongPassword);
    await alerts(a.page).getByText(ACCOUNT_MESSAGES.wrongPassword).waitFor();
    expect(new URL(a.page.url()).pathname).toBe('/password/change');
    expect(await alerts(a.page).getByText(ACCOUNT_MESSAGES.passwordUpdated.title).count()).toBe(0);
    expect(await statusWith(b.cookie)).toBe(200);
    expect(await b.tab.getByText(SIGNED_OUT_ALERT.title).count()).toBe(0);

    // The right one: 'Password Updated', and this browser stays signed in on /profile.
    await field(a.page, 'Current Password').fill(cam.password);
    await expect.poll(() => fieldError(a.page, 'Current Password')).toBe('');
    await a.page.getByRole('button', { name: 'Save Password' }).click();
    await a.page.waitForURL(`${env.server.url}/profile`);
    const updated = alerts(a.page).getByRole('alert').filter({ hasText: ACCOUNT_MESSAGES.passwordUpdated.title });
    await updated.getByText(ACCOUNT_MESSAGES.passwordUpdated.text).waitFor();
    expect(await callApi(a.page, 'GET', '/v2/self')).toMatchObject({ body: { self: { email: cam.email } } });
    expect(await statusWith(await cookieHeader(a.context, env.server.url))).toBe(200);

    // The other browser is told at once and goes to /login; its cookie opens nothing any more.
    await expectSignedOut(b.tab, b.socket);
    expect(await statusWith(b.cookie)).toBe(401);
    expect(await callApi(b.tab, 'GET', '/v2/self')).toMatchObject({ body: { self: { id: 0 } } });
    // Only the other browser was signed out.
    expect(await alerts(a.page).getByText(SIGNED_OUT_ALERT.title).count()).toBe(0);
    expect(new URL(a.page.url()).pathname).toBe('/profile');
    await b.context.close();

    // The old password no longer signs in; the new one does.
    const fresh = await newPage(env.browser);
    await fresh.page.goto(`${env.server.url}/login`);
    await fresh.page.getByLabel('Email').fill(cam.email);
    await fresh.page.getByLabel('Password', { exact: true }).fill(cam.password);
    await fresh.page.getByRole('button', { name: 'Sign in' }).click();
    await alerts(fresh.page).getByText(LOGIN_FAILED).waitFor();
    expect(new URL(fresh.page.url()).pathname).toBe('/login');
    expect(await callApi(fresh.page, 'GET', '/v2/self')).toMatchObject({ body: { self: { id: 0 } } });
    await signInWithForm(fresh.page, env.server.url, { email: cam.email, password: NEW_PASSWORD });
    await fresh.page.waitForURL(`${env.server.url}/`);
    expect(await callApi(fresh.page, 'GET', '/v2/self')).toMatchObject({ body: { self: { email: cam.email } } });
    await fresh.context.close();
    await a.context.close();
  });

  it("'Sign out everywhere else' on the profile ends the other browser's session and keeps this one", async () => {
    const a = await newPage(env.browser);
    await signInWithForm(a.page, env.server.url, eve);
    await a.page.waitForURL(`${env.server.url}/`);
    const b = await otherBrowser(env.browser, eve, idOf(eve.email));

    await a.page.goto(`${env.server.url}/profile`);
    const list = a.page.getByRole('list', { name: 'Your sessions' });
    const items = list.getByTestId('my-session');
    // Every live session of hers (this browser's, the other browser's, and the sign-in over HTTP that accepted
    // the agreement before the test), this one marked and listed first.
    const live = Object.keys((await mySessions(a.page)).sessions).length;
    expect(live).toBeGreaterThanOrEqual(2);
    await expect.poll(() => items.count()).toBe(live);
    await items.first().getByText('This session').waitFor();
    expect(await list.getByText('This session').count()).toBe(1);

    const everywhere = a.page.getByRole('button', { name: 'Sign out everywhere else' });
    await everywhere.click();

    await expectSignedOut(b.tab, b.socket);
    expect(await statusWith(b.cookie)).toBe(401);
    await expect.poll(() => items.count()).toBe(1);
    await items.first().getByText('This session').waitFor();
    await expect.poll(() => everywhere.isDisabled()).toBe(true);
    // This browser is still signed in, and the server agrees there is one session left.
    expect(await callApi(a.page, 'GET', '/v2/self')).toMatchObject({ body: { self: { email: eve.email } } });
    expect(Object.values((await mySessions(a.page)).sessions).map((s) => s.current)).toEqual([true]);
    expect(await alerts(a.page).getByText(SIGNED_OUT_ALERT.title).count()).toBe(0);
    await b.context.close();
    await a.context.close();
  });
});
