/**
 * The organization administrator's and the system administrator's paths through the console (spec §2
 * Organizations, User, Sessions; §4; §6; decision 0007), in Chromium with real mail: root makes an organization
 * and its administrator, who sets a password from the mail; the administrator manages their own organization and
 * its users and sees nothing of another; root ends the administrator's session from /sessions.
 *
 * The tests run in order and build on each other (one organization, one administrator's browser).
 */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { SIGNED_OUT_ALERT } from '@tessera/common/alerts';
import { formatDate } from '@tessera/common/dates';
import type { SessionEntry } from '@tessera/common/resources';
import { ROLE_LABEL } from '@tessera/common/roles';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { callApi, cookieHeader, newPage, signInWithForm } from './support/browser';
import { field } from './support/forms';
import { useServerWithMail } from './support/mail';
import { ROOT } from './support/server';
import { type SocketWatch, watchSocket } from './support/socket';

const env = useServerWithMail();

const ORGANIZATION = { name: 'Console Co', renamed: 'Console Company', domain: 'console-co.example' };
const ADMIN = { email: 'ada@console-co.example', name: 'Ada Admin', password: 'Adm1n-passw0rd!' };
const MEMBER = { email: 'uma@console-co.example', name: 'Uma User' };

/** What the tests hand on to each other. */
const state = {} as {
  root: { context: BrowserContext; page: Page };
  admin: { context: BrowserContext; page: Page; socket: SocketWatch; id: number };
  organizationId: number;
  otherUserId: number;
};

afterAll(async () => {
  await state.root?.context.close().catch(() => undefined);
  await state.admin?.context.close().catch(() => undefined);
});

const alerts = (page: Page) => page.getByTestId('alert-stack');
const dialog = (page: Page) => page.getByRole('dialog');

/** The options a MUI select offers, read from its open menu, which is then closed again. */
async function selectOptions(page: Page, select: Locator): Promise<string[]> {
  await select.click();
  const listbox = page.getByRole('listbox');
  await listbox.waitFor();
  const options = await listbox.getByRole('option').allTextContents();
  await page.keyboard.press('Escape');
  await listbox.waitFor({ state: 'detached' });
  return options;
}

async function chooseOption(page: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

/** Fills the 'Add User' dialog of an organization page and adds the user; the dialog closes on success. */
async function addUser(page: Page, user: { email: string; name: string }, role?: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Add User' }).click();
  const form = dialog(page);
  await form.getByRole('heading', { name: 'Add User' }).waitFor();
  await field(form, 'E-mail').fill(user.email);
  await field(form, 'Name').fill(user.name);
  if (role) await chooseOption(page, form.getByRole('combobox', { name: 'Role' }), role);
  await form.getByRole('button', { name: 'Add User' }).click();
  await form.waitFor({ state: 'detached' });
  const added = alerts(page).getByRole('alert').filter({ hasText: 'User Added' });
  await added.getByText(`${user.email} has been sent a link to set their password.`).waitFor();
  return page.getByTestId('user-row').filter({ hasText: user.email });
}

describe.sequential('organization and system administrators (spec §2, §6; decision 0007)', () => {
  it('root creates an organization with a domain and adds its administrator, who sets a password from the mail, accepts the agreement and lands on Home', async () => {
    state.root = await newPage(env.browser);
    const { page } = state.root;
    await signInWithForm(page, env.server.url, ROOT);
    await page.goto(`${env.server.url}/organizations`);
    await page.getByRole('link', { name: 'Add Organization' }).click();
    await page.waitForURL(`${env.server.url}/organizations/add`);
    await expect.poll(() => page.title()).toBe('Tessera - Organizations');
    await field(page, 'Name').fill(ORGANIZATION.name);
    await field(page, 'E-mail domain').fill(ORGANIZATION.domain);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/organizations\/\d+$/);
    state.organizationId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { name: ORGANIZATION.name }).waitFor();
    await page.getByText(ORGANIZATION.domain, { exact: true }).waitFor();
    await page.getByText('No users.').waitFor();

    // Root may make an administrator (or anything below root).
    await page.getByRole('button', { name: 'Add User' }).click();
    expect(await selectOptions(page, dialog(page).getByRole('combobox', { name: 'Role' }))).toEqual([
      ROLE_LABEL.user,
      ROLE_LABEL.admin,
      ROLE_LABEL.super,
    ]);
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    const row = await addUser(page, ADMIN, ROLE_LABEL.admin);
    await row.getByText(ROLE_LABEL.admin, { exact: true }).waitFor();
    await row.getByRole('link', { name: ADMIN.name }).waitFor();

    // Another organization with a member, which the administrator must never see.
    const other = (await callApi(page, 'POST', '/v2/organizations', { name: 'Elsewhere Ltd' })) as {
      status: number;
      body: { organizations: Record<string, { id: number }> };
    };
    expect(other.status).toBe(200);
    const otherId = Object.values(other.body.organizations)[0]!.id;
    const outsider = (await callApi(page, 'POST', '/v2/users', {
      email: 'olly@elsewhere.example',
      name: 'Olly Outsider',
      role: 'user',
      organizationId: otherId,
    })) as { status: number; body: { users: Record<string, { id: number }> } };
    expect(outsider.status).toBe(200);
    state.otherUserId = Object.values(outsider.body.users)[0]!.id;

    // The administrator's mail, and their own browser.
    const mail = await env.mailbox.nextMail(ADMIN.email);
    expect(mail.subject).toBe('Set your Tessera password');
    expect(mail.link.startsWith(`${env.server.url}/password/set?token=`)).toBe(true);
    const admin = await newPage(env.browser);
    const socket = watchSocket(admin.page);
    await admin.page.goto(mail.link);
    await expect.poll(() => admin.page.title()).toBe('Tessera - Set Password');
    await expect.poll(() => field(admin.page, 'Email').inputValue()).toBe(ADMIN.email);
    await field(admin.page, 'New Password').fill(ADMIN.password);
    await field(admin.page, 'Confirm New Password').fill(ADMIN.password);
    await admin.page.getByRole('button', { name: 'Save Password' }).click();
    await admin.page.waitForURL(`${env.server.url}/terms`);
    await alerts(admin.page).getByText(ACCOUNT_MESSAGES.passwordUpdated.title).waitFor();
    await admin.page.getByRole('button', { name: 'I accept this Agreement' }).click();
    await admin.page.waitForURL(`${env.server.url}/`);
    await admin.page
      .getByText(`Signed in as ${ADMIN.name} (${ROLE_LABEL.admin}, ${ORGANIZATION.name}).`, { exact: true })
      .waitFor();
    const self = (await callApi(admin.page, 'GET', '/v2/self')).body as { self: { id: number } };
    state.admin = { ...admin, socket, id: self.self.id };
  });

  it('the administrator sees only their organization, renames it, and cannot change its e-mail domain', async () => {
    const { page } = state.admin;
    const id = state.organizationId;
    await page.goto(`${env.server.url}/organizations`);
    await expect.poll(() => page.title()).toBe('Tessera - Organizations');
    const rows = page.getByTestId('organization-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    await rows.getByRole('link', { name: ORGANIZATION.name, exact: true }).waitFor();
    expect(await page.getByText('Elsewhere Ltd').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add Organization' }).count()).toBe(0);
    expect(await rows.getByRole('button', { name: `Delete ${ORGANIZATION.name}` }).count()).toBe(0);
    // Root, by contrast, sees both.
    await state.root.page.goto(`${env.server.url}/organizations`);
    await expect.poll(() => state.root.page.getByTestId('organization-row').count()).toBe(2);

    await rows.getByRole('link', { name: `Edit ${ORGANIZATION.name}` }).click();
    await page.waitForURL(`${env.server.url}/organizations/edit/${id}`);
    await page.getByRole('heading', { name: `Edit ${ORGANIZATION.name}` }).waitFor();
    const domain = field(page, 'E-mail domain');
    await expect.poll(() => domain.inputValue()).toBe(ORGANIZATION.domain);
    expect(await domain.isEditable()).toBe(false);
    await page.getByText(`Only a ${ROLE_LABEL.super} can change the e-mail domain.`).waitFor();
    await domain.press('End');
    await page.keyboard.type('.evil');
    expect(await domain.inputValue()).toBe(ORGANIZATION.domain);

    await field(page, 'Name').fill(ORGANIZATION.renamed);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(`${env.server.url}/organizations/${id}`);
    await page.getByRole('heading', { name: ORGANIZATION.renamed }).waitFor();
    await page.getByText(ORGANIZATION.domain, { exact: true }).waitFor();
    // The server holds the same line: the name changed, and the domain may not be changed by an admin.
    expect(await callApi(page, 'GET', `/v2/organizations/${id}`)).toMatchObject({
      body: { organizations: { [id]: { name: ORGANIZATION.renamed, emailDomain: ORGANIZATION.domain } } },
    });
    expect(await callApi(page, 'PUT', `/v2/organizations/${id}`, { emailDomain: 'taken-over.example' })).toMatchObject({
      status: 403,
    });
  });

  it('the administrator adds a user, may give them only Organization User, and deletes them after confirming', async () => {
    const { page } = state.admin;
    const id = state.organizationId;
    await page.goto(`${env.server.url}/organizations/${id}`);
    await page.getByRole('heading', { name: ORGANIZATION.renamed }).waitFor();

    // The role select offers only the ranks below the administrator's: Organization User.
    await page.getByRole('button', { name: 'Add User' }).click();
    expect(await selectOptions(page, dialog(page).getByRole('combobox', { name: 'Role' }))).toEqual([ROLE_LABEL.user]);
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await dialog(page).waitFor({ state: 'detached' });

    const row = await addUser(page, MEMBER);
    await row.getByText(ROLE_LABEL.user, { exact: true }).waitFor();
    const mail = await env.mailbox.nextMail(MEMBER.email);
    expect(mail.subject).toBe('Set your Tessera password');

    // The user's page, then its edit form: the role select again offers only Organization User.
    await row.getByRole('link', { name: MEMBER.name }).click();
    await page.waitForURL(/\/users\/\d+$/);
    const memberId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { name: MEMBER.name }).waitFor();
    await page
      .getByRole('button', { name: 'Edit' })
      .or(page.getByRole('link', { name: 'Edit' }))
      .click();
    await page.waitForURL(`${env.server.url}/users/edit/${memberId}`);
    const role = page.getByRole('combobox', { name: 'Role' });
    await expect.poll(() => role.textContent()).toBe(ROLE_LABEL.user);
    expect(await selectOptions(page, role)).toEqual([ROLE_LABEL.user]);
    await chooseOption(page, role, ROLE_LABEL.user);
    await field(page, 'Title').fill('Analyst');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(`${env.server.url}/users/${memberId}`);
    await page.getByText('Analyst', { exact: true }).waitFor();
    await page.getByText(ROLE_LABEL.user, { exact: true }).waitFor();
    // Nor will the server make them anything higher for an administrator.
    expect(await callApi(page, 'PUT', `/v2/users/${memberId}`, { role: 'admin' })).toMatchObject({ status: 403 });

    // Delete, confirmed in the dialog: back to the organization, without them.
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = dialog(page);
    await confirm.getByRole('heading', { name: 'Delete User' }).waitFor();
    await confirm.getByTestId('confirm-text').getByText(MEMBER.name).waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(`${env.server.url}/organizations/${id}`);
    await page.getByTestId('user-row').filter({ hasText: ADMIN.email }).waitFor();
    await expect.poll(() => page.getByTestId('user-row').filter({ hasText: MEMBER.email }).count()).toBe(0);
    expect(await callApi(page, 'GET', `/v2/users/${memberId}`)).toMatchObject({ status: 404 });
  });

  it('shows the administrator Page Not Found for a user of another organization', async () => {
    const { page } = state.admin;
    await page.goto(`${env.server.url}/users/${state.otherUserId}`);
    await expect.poll(() => page.title()).toBe('Tessera - Page Not Found');
    await page.getByText("We're sorry! The page you're looking for does not exist.").waitFor();
    expect(await page.getByText('Olly Outsider').count()).toBe(0);
    expect(await callApi(page, 'GET', `/v2/users/${state.otherUserId}`)).toMatchObject({ status: 404 });
  });

  it("root sees the administrator's session at /sessions and revokes it, which signs their browser out", async () => {
    const admin = state.admin;
    await admin.page.goto(`${env.server.url}/usage`);
    await expect.poll(() => admin.page.title()).toBe('Tessera - Usage');
    await admin.socket.subscribedToSelf(admin.id);
    const agent = await admin.page.evaluate(() => navigator.userAgent);
    const adminCookie = await cookieHeader(admin.context, env.server.url);

    const { page } = state.root;
    const listed = async () =>
      Object.values(
        ((await callApi(page, 'GET', '/v2/sessions')).body as { sessions: Record<string, SessionEntry> }).sessions,
      ).filter((s) => s.userId === admin.id);
    const before = await listed();
    expect(before).toHaveLength(1);
    await page.goto(`${env.server.url}/sessions`);
    await expect.poll(() => page.title()).toBe('Tessera - Sessions');
    const row = page.getByTestId('session-row').filter({ hasText: ADMIN.email });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    const after = await listed();
    // User (name and address), organization, IP, agent, last seen.
    expect(cells[0]).toContain(ADMIN.name);
    expect(cells[0]).toContain(ADMIN.email);
    expect(cells[1]).toBe(ORGANIZATION.renamed);
    expect(cells[2]).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    expect(cells[2]).toBe(before[0]!.ip);
    expect(cells[3]).toBe(agent);
    expect([before[0]!.lastSeenAt, after[0]!.lastSeenAt].map((d) => formatDate(d))).toContain(cells[4]);

    await row.getByRole('button', { name: `Revoke the session of ${ADMIN.name}` }).click();
    await expect.poll(() => row.count()).toBe(0);

    const notice = alerts(admin.page).getByRole('alert');
    await notice.getByText(SIGNED_OUT_ALERT.title).waitFor();
    await notice.getByText(SIGNED_OUT_ALERT.text!).waitFor();
    await admin.page.waitForURL((url) => url.pathname === '/login');
    const status = await fetch(`${env.server.url}/v2/terms`, { headers: { cookie: adminCookie } });
    expect(status.status).toBe(401);
    expect(await listed()).toEqual([]);
  });
});
