/**
 * Change subscriptions in the console (issue 33 item 2) in Chromium against the real server holding 200 seeded
 * people: a member of an organization with a contract in force finds the page in the drawer, subscribes by the
 * e-mail of a seeded person and sees it listed at the top, the organization's count moving at once; an e-mail no one
 * holds is refused with the server's 404 message in the alert beside the form; once root sets the contract's
 * subscription limit (over the contract API) a plain member sees the use against it ("N of L"), moved by a Subscribe
 * and a Delete and agreeing with the server's after a reload, and at the limit the 409 naming it; a subscription is
 * deleted through the confirmation, the count moving down. The page passes WCAG 2.1 AA light and dark at 1280 and
 * 390 px with the list and its limit, the error alert, the open confirmation, the empty state and the page without an
 * organization; screenshots go to SCREENSHOT_DIR.
 */
import { mkdirSync } from 'node:fs';
import type { LookupSamples } from '@tessera/common/samples';
import { SUBSCRIPTION_MESSAGES, type Subscription } from '@tessera/common/subscriptions';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, openSettled, sidewaysScroll, trackRequests, transformedText } from './support/page-checks';
import { usePages } from './support/pages';
import { seedUser } from './support/server';

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-subs';
mkdirSync(SHOTS, { recursive: true });

const member = seedUser('user', { name: 'Mia Member' });
const admin = seedUser('admin', { name: 'Sue Scribe' });
/** An administrator of an organization without subscriptions: the empty state. */
const loner = seedUser('admin', { name: 'Lou Loner' });
const env = useServerAndBrowser({ users: [member, admin, loner], env: { SEED_IDENTITIES: '200' } });
const openAs = usePages(env);
const ORGANIZATION = `Followers ${process.pid}`;
const DAY = 86_400_000;

let samples: LookupSamples;
let contractId = 0;

const idOf = (account: { email: string }) => env.server.users.find((u) => u.email === account.email)!.id;

/** Root makes an organization and moves the users into it; its id. */
async function organizationOf(root: Page, name: string, users: { email: string }[]): Promise<number> {
  const made = await callApi(root, 'POST', '/v2/organizations', { name });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const organizationId = Number(Object.keys((made.body as { organizations: object }).organizations)[0]);
  for (const user of users) {
    const moved = await callApi(root, 'PUT', `/v2/users/${idOf(user)}`, { organizationId });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  }
  return organizationId;
}

/** Root sets the contract's subscription limit (null: none). */
async function setLimit(root: Page, subscriptionLimit: number | null): Promise<void> {
  const changed = await callApi(root, 'PUT', `/v2/contracts/${contractId}`, { subscriptionLimit });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
}

async function listed(page: Page): Promise<Subscription[]> {
  const list = await callApi(page, 'GET', '/v2/subscriptions');
  expect(list.status).toBe(200);
  return Object.values((list.body as { subscriptions: Record<string, Subscription> }).subscriptions);
}

beforeAll(async () => {
  const root = await openAs('root');
  const organizationId = await organizationOf(root, ORGANIZATION, [member, admin]);
  await organizationOf(root, `Quiet ${process.pid}`, [loner]);
  const now = Date.now();
  const contract = await callApi(root, 'POST', '/v2/contracts', {
    organizationId,
    startsAt: new Date(now - DAY).toISOString(),
    endsAt: new Date(now + 365 * DAY).toISOString(),
    subscriptionLimit: null,
  });
  expect(contract.status, JSON.stringify(contract.body)).toBe(201);
  contractId = Number(Object.keys((contract.body as { contracts: object }).contracts)[0]);
  const sampled = await callApi(root, 'GET', '/v2/samples?mode=live');
  samples = (sampled.body as { samples: LookupSamples }).samples;
  expect(samples?.email).toMatch(/@/);
  await root.context().close();
});

const rows = (page: Page) => page.getByTestId('subscription-row');
const subscribeButton = (page: Page) => page.getByRole('button', { name: 'Subscribe', exact: true });

/** Waits for the limit line to say exactly `text`. */
async function limitSays(page: Page, text: string): Promise<void> {
  await page.getByTestId('subscription-limit').getByText(text, { exact: true }).waitFor();
}
const noLimit = (live: number) =>
  `${live} ${live === 1 ? 'subscription' : 'subscriptions'} in use; your contract sets no limit.`;
const ofLimit = (live: number, limit: number) =>
  `${live} of ${limit} ${limit === 1 ? 'subscription' : 'subscriptions'} in use (your contract's limit).`;

async function deleteFirst(page: Page): Promise<void> {
  const first = rows(page).first();
  const id = await first.getAttribute('data-subscription-id');
  await first.getByRole('button', { name: /^Delete the subscription/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Subscription' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator(`[data-subscription-id="${id}"]`).waitFor({ state: 'detached' });
}

async function subscribeByEmail(page: Page, email: string): Promise<void> {
  await page.getByLabel('E-mail address', { exact: true }).fill(email);
  await subscribeButton(page).click();
}

describe('subscriptions (issue 33 item 2)', () => {
  it('a member finds the page, subscribes by the e-mail of a seeded person and sees it at the top', async () => {
    const page = await openAs(member);
    await page.goto(`${env.server.url}/`);
    await page.getByTestId('nav-drawer').getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('heading', { name: 'Subscriptions', level: 1 }).waitFor();
    expect(await page.title()).toBe('Tessera - Subscriptions');
    // Nothing yet: what subscriptions are, with no way to the webhooks a member may not manage.
    const empty = page.getByTestId('subscriptions-empty');
    await empty.getByText('No subscriptions yet').waitFor();
    expect(await empty.getByRole('link').count()).toBe(0);
    // Every member is told the organization's use; the contract sets no limit yet.
    await limitSays(page, noLimit(0));

    await subscribeByEmail(page, `  ${samples.email.toUpperCase()} `);
    const row = rows(page).first();
    await row.waitFor();
    await page.getByTestId('subscribe-done').getByText(`Subscribed to identity ${samples.id}`).waitFor();
    expect(await row.locator('td').first().textContent()).toBe(String(samples.id));
    await row.getByText('E-mail', { exact: true }).waitFor();
    await row.getByText(samples.email.toLowerCase(), { exact: true }).waitFor();
    await row.getByText('Full', { exact: true }).waitFor();
    await row.getByRole('link', { name: 'Mia Member' }).waitFor();
    await row.getByText('In the console').waitFor();
    expect(await page.getByLabel('E-mail address', { exact: true }).inputValue()).toBe('');
    await limitSays(page, noLimit(1));

    const [saved] = await listed(page);
    expect(saved).toMatchObject({
      identityId: samples.id,
      input: { kind: 'email', value: samples.email.toLowerCase() },
    });
    expect(await row.getAttribute('data-subscription-id')).toBe(String(saved!.id));

    // By id, a second one goes above it.
    await page.getByRole('combobox', { name: 'Subscribe by' }).click();
    await page.getByRole('option', { name: 'Identity ID' }).click();
    await page.getByLabel('Identity ID', { exact: true }).fill(String(samples.id));
    await subscribeButton(page).click();
    await expect.poll(() => rows(page).count()).toBe(2);
    await rows(page).first().getByText('Identity ID', { exact: true }).waitFor();
    await limitSays(page, noLimit(2));
  });

  it("checks an e-mail before sending, and shows the server's 404 for one no one holds beside the form", async () => {
    const page = await openAs(member);
    await page.goto(`${env.server.url}/subscriptions`);
    await rows(page).first().waitFor();
    const before = await rows(page).count();
    await limitSays(page, noLimit(before));
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/v2/subscriptions')) posts.push(r.url());
    });

    await subscribeByEmail(page, 'not-an-address');
    await page.getByText(SUBSCRIPTION_MESSAGES.input('email'), { exact: true }).first().waitFor();
    expect(posts).toEqual([]);

    await subscribeByEmail(page, `nobody-${process.pid}@nowhere.example`);
    const alert = page.getByRole('alert').filter({ hasText: SUBSCRIPTION_MESSAGES.unresolved('email') });
    await alert.waitFor();
    expect(await alert.getAttribute('data-testid')).toBe('subscribe-error');
    await alert.getByText('Not subscribed', { exact: true }).waitFor();
    expect(posts).toHaveLength(1);
    expect(new URL(page.url()).pathname).toBe('/subscriptions');
    expect(await rows(page).count()).toBe(before);
    await limitSays(page, noLimit(before));
  });

  it('a plain member sees the use against the limit root sets, moved by Subscribe and Delete; 409 at it', async () => {
    const root = await openAs('root');
    const page = await openAs(member);
    const held = (await listed(page)).length;
    expect(held).toBeGreaterThan(0);
    const limit = held + 1;
    await setLimit(root, limit);
    try {
      await page.goto(`${env.server.url}/subscriptions`);
      await limitSays(page, ofLimit(held, limit));
      // One more reaches the limit: the line counts it at once, and the server agrees after a reload.
      await subscribeByEmail(page, samples.email);
      await expect.poll(() => rows(page).count()).toBe(held + 1);
      await limitSays(page, ofLimit(limit, limit));
      await page.reload();
      await rows(page).first().waitFor();
      await limitSays(page, ofLimit(limit, limit));

      // At the limit the server refuses with a 409 naming it; nothing is made, the line stays.
      await subscribeByEmail(page, samples.email);
      const alert = page.getByTestId('subscribe-error');
      await alert.getByText(SUBSCRIPTION_MESSAGES.limit(limit), { exact: true }).waitFor();
      await alert.getByText('Not subscribed', { exact: true }).waitFor();
      expect(await alert.getAttribute('role')).toBe('alert');
      expect(await rows(page).count()).toBe(limit);
      expect(await listed(page)).toHaveLength(limit);
      await limitSays(page, ofLimit(limit, limit));

      // A Delete frees one: the line counts it at once, and the server agrees after a reload.
      await deleteFirst(page);
      await limitSays(page, ofLimit(held, limit));
      await page.reload();
      await rows(page).first().waitFor();
      await limitSays(page, ofLimit(held, limit));
    } finally {
      await setLimit(root, null);
    }
    // Without a limit an administrator subscribes again, and the line says so.
    const boss = await openAs(admin);
    await boss.goto(`${env.server.url}/subscriptions`);
    await limitSays(boss, noLimit(held));
    await subscribeByEmail(boss, samples.email);
    await expect.poll(() => rows(boss).count()).toBe(held + 1);
    await limitSays(boss, noLimit(held + 1));
    await rows(boss).first().getByRole('link', { name: 'Sue Scribe' }).waitFor();
  });

  it('deletes one through the confirmation; Cancel keeps it', async () => {
    const page = await openAs(member);
    await page.goto(`${env.server.url}/subscriptions`);
    const first = rows(page).first();
    await first.waitFor();
    const id = Number(await first.getAttribute('data-subscription-id'));
    const count = await rows(page).count();
    const identity = (await first.locator('td').first().textContent()) ?? '';
    await limitSays(page, noLimit(count));

    await first.getByRole('button', { name: `Delete the subscription to identity ${identity}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Subscription' });
    await dialog
      .getByTestId('confirm-text')
      .getByText(`Stop following identity ${identity}`, { exact: false })
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await rows(page).count()).toBe(count);
    await limitSays(page, noLimit(count));

    await first.getByRole('button', { name: `Delete the subscription to identity ${identity}` }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator(`[data-subscription-id="${id}"]`).waitFor({ state: 'detached' });
    expect(await rows(page).count()).toBe(count - 1);
    await limitSays(page, noLimit(count - 1));
    expect((await callApi(page, 'GET', `/v2/subscriptions/${id}`)).status).toBe(404);
  });
});

const VIEWS = [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 1280 },
  { theme: 'light', width: 390 },
  { theme: 'dark', width: 390 },
] as const;

/** axe's WCAG 2.1 AA violations, sideways scroll and transformed text of the page as it is now; a screenshot. */
async function check(page: Page, name: string, view: (typeof VIEWS)[number]): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}-${view.theme}-${view.width}.png`, fullPage: true });
  expect(
    [...(await axeViolations(page)), ...(await sidewaysScroll(page)), ...(await transformedText(page))],
    `${name} ${view.theme} ${view.width}`,
  ).toEqual([]);
}

describe('WCAG 2.1 AA and screenshots', () => {
  beforeAll(async () => {
    // A list with an input of each kind the table shows: by e-mail, by hash, by phone, by id.
    const page = await openAs(admin);
    for (const body of [
      { sha256: samples.sha256 },
      { md5: samples.md5 },
      { phone: samples.phone },
      { identityId: samples.id },
    ]) {
      const made = await callApi(page, 'POST', '/v2/subscriptions', body);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    await page.context().close();
    // The list's line then tells the use against a limit.
    const root = await openAs('root');
    await setLimit(root, 100);
    await root.context().close();
  });

  describe.each(VIEWS)('in the $theme theme at $width px', (view) => {
    it('the list with the limit, the error alert, the open confirmation, the empty state, no organization', async () => {
      const options = { colorScheme: view.theme, width: view.width, height: 900 };
      const page = await openAs(admin, options);
      const pending = trackRequests(page);
      await openSettled(page, `${env.server.url}/subscriptions`, pending);
      await rows(page).first().waitFor();
      await page
        .getByTestId('subscription-limit')
        .getByText(/ of 100 subscriptions in use/)
        .waitFor();
      await check(page, 'list', view);

      await subscribeByEmail(page, `nobody-${view.theme}-${view.width}@nowhere.example`);
      await page.getByTestId('subscribe-error').getByText(SUBSCRIPTION_MESSAGES.unresolved('email')).waitFor();
      await check(page, 'error', view);

      await rows(page)
        .first()
        .getByRole('button', { name: /^Delete the subscription/ })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Delete Subscription' });
      await dialog.getByTestId('confirm-text').waitFor();
      await check(page, 'confirm', view);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });

      const quiet = await openAs(loner, options);
      const quietPending = trackRequests(quiet);
      await openSettled(quiet, `${env.server.url}/subscriptions`, quietPending);
      await quiet.getByTestId('subscriptions-empty').getByRole('link', { name: 'Webhooks page' }).waitFor();
      // An organization without a contract: no limit.
      await limitSays(quiet, noLimit(0));
      await check(quiet, 'empty', view);

      const root = await openAs('root', options);
      const rootPending = trackRequests(root);
      await openSettled(root, `${env.server.url}/subscriptions`, rootPending);
      await root.getByTestId('no-organization').waitFor();
      await check(root, 'no-organization', view);
    });
  });
});
