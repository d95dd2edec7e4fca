/**
 * Webhook endpoints in the console (issue 33) in Chromium against the real server, delivering to a real receiver on
 * loopback (WEBHOOK_ALLOW_PRIVATE=true, a retry schedule of seconds): an administrator makes an endpoint and sees its
 * secret once, sends a test event that arrives signed with that secret, and the log shows it succeeded; a receiver
 * answering 500 shows the failed attempts with what it answered until the run of failures disables the endpoint,
 * which is enabled again and the delivery replayed; super and root see every organization's endpoints; a server
 * without WEBHOOK_ALLOW_PRIVATE refuses 10.0.0.1 on the URL field. The pages pass WCAG 2.1 AA light and dark at
 * 1280 and 360 px, dialogs and an opened delivery included; screenshots go to SCREENSHOT_DIR.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { verifyWebhook } from '@tessera/common/webhook-signature';
import {
  WEBHOOK_HEADERS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_PREFIX,
  type WebhookEndpoint,
} from '@tessera/common/webhooks';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptTermsAsRoot, callApi, signInAsRoot, useServerAndBrowser } from './support/browser';
import { fieldError, validationBanner } from './support/forms';
import { axeViolations, openSettled, sidewaysScroll, stillPages, trackRequests } from './support/page-checks';
import { usePages } from './support/pages';
import { type RunningServer, seedUser, startServer } from './support/server';
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots/webhooks';
mkdirSync(SHOTS, { recursive: true });

const admin = seedUser('admin', { name: 'Wanda Hooks' });
const env = useServerAndBrowser({
  users: [admin],
  env: {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0,1s,1s',
    WEBHOOK_DISABLE_AFTER_FAILURES: '3',
  },
});
const openAs = usePages(env);
const ORGANIZATION = `Hooks ${process.pid}`;

/** Root makes an organization; its id. */
async function makeOrganization(root: Page, name: string): Promise<number> {
  const made = await callApi(root, 'POST', '/v2/organizations', { name });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return Number(Object.keys((made.body as { organizations: object }).organizations)[0]);
}

let receiver: WebhookReceiver;
let otherOrganization = 0;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // The administrator's organization, made by root, with them moved into it; and another one.
  const root = await openAs('root');
  const organizationId = await makeOrganization(root, ORGANIZATION);
  otherOrganization = await makeOrganization(root, `Others ${process.pid}`);
  const adminId = env.server.users.find((u) => u.email === admin.email)!.id;
  const moved = await callApi(root, 'PUT', `/v2/users/${adminId}`, { organizationId });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  await root.context().close();
});
afterAll(async () => {
  await receiver?.close();
});

const adminPage = (colorScheme: 'light' | 'dark' = 'light', width = 1280) =>
  openAs(admin, { colorScheme, width, height: 900 });

/** The signature checked twice: by verifyWebhook, and by an HMAC computed here from the Standard Webhooks rule. */
function checkSignature(secret: string, got: ReceivedWebhook) {
  const event = verifyWebhook(secret, got.headers, got.body);
  const id = String(got.headers[WEBHOOK_HEADERS.id]);
  const timestamp = String(got.headers[WEBHOOK_HEADERS.timestamp]);
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${got.body}`).digest('base64');
  expect(String(got.headers[WEBHOOK_HEADERS.signature]).split(' ')).toContain(`v1,${expected}`);
  return event;
}

/** Makes an endpoint on /webhooks/add; returns its id and the secret the once-only dialog showed, after closing it. */
async function createOnPage(page: Page, url: string, description: string): Promise<{ id: number; secret: string }> {
  await page.goto(`${env.server.url}/webhooks`);
  await page.getByRole('link', { name: 'New Endpoint' }).click();
  await page.waitForURL(`${env.server.url}/webhooks/add`);
  await page.getByLabel('URL', { exact: true }).fill(url);
  await page.getByLabel('Description').fill(description);
  await page.getByRole('button', { name: 'Create Endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Signing secret of the new endpoint' });
  await dialog.getByText('it will not be shown again').waitFor();
  const secret = (await dialog.getByTestId('webhook-secret').textContent()) ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await dialog.getByRole('button', { name: 'I have copied it' }).click();
  await page.waitForURL((u) => /^\/webhooks\/\d+$/.test(u.pathname));
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  return { id, secret };
}

/** Makes an endpoint over the API, as the page's user. */
async function createByApi(
  page: Page,
  url: string,
  fields: { description?: string; organizationId?: number } = {},
): Promise<WebhookEndpoint> {
  const made = await callApi(page, 'POST', '/v2/webhooks', { url, events: ['identity.changed'], ...fields });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return Object.values((made.body as { webhooks: Record<string, WebhookEndpoint> }).webhooks)[0]!;
}

const row = (page: Page, status?: string) =>
  page.locator(`[data-testid="delivery-row"]${status ? `[data-status="${status}"]` : ''}`);

const pageHolds = (page: Page, text: string) =>
  page.evaluate((t) => document.documentElement.outerHTML.includes(t), text);

describe('webhook endpoints (issue 33)', () => {
  it('makes an endpoint, shows its secret once, and a test event arrives signed and is logged as succeeded', async () => {
    const page = await adminPage();
    // Administrators find the page in the drawer.
    await page.goto(`${env.server.url}/`);
    await page.getByTestId('nav-drawer').getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    const { id, secret } = await createOnPage(page, `${receiver.base}/ok`, 'Orders service');
    expect(await pageHolds(page, secret.slice(WEBHOOK_SECRET_PREFIX.length))).toBe(false);
    await page.getByTestId('endpoint-status').getByText('Enabled').waitFor();

    await page.getByRole('button', { name: 'Send Test Event' }).click();
    await expect.poll(() => receiver.to('/ok').length).toBe(1);
    const got = receiver.to('/ok')[0]!;
    const event = checkSignature(secret, got);
    expect(event.type).toBe('webhook.test');
    expect(event.data).toMatchObject({ endpointId: id });

    // The log: succeeded with the receiver's 200, under the message id the receiver got.
    const done = row(page, 'succeeded');
    await done.waitFor();
    expect(await done.getByTestId('last-status').textContent()).toBe('200');
    await done.getByText(String(got.headers[WEBHOOK_HEADERS.id])).waitFor();
    await done.getByRole('button', { name: /^Attempts of / }).click();
    const attempt = page.getByTestId('webhook-attempt');
    await attempt.getByText('Attempt 1').waitFor();
    expect(await attempt.getByTestId('response-excerpt').textContent()).toBe('ok');

    // The list shows it.
    await page.goto(`${env.server.url}/webhooks`);
    const listed = page.locator(`[data-webhook-id="${id}"]`);
    await listed.getByText(`${receiver.base}/ok`).waitFor();
    await listed.getByText('Orders service').waitFor();
    await listed.getByText('identity.changed').waitFor();
  });

  it('logs failed attempts with the answer as text; the run of failures disables it; Enable, then Replay succeeds', async () => {
    const answer = '<b>down</b> & out';
    receiver.answers.set('/failing', { status: 500, body: answer });
    const page = await adminPage();
    const endpoint = await createByApi(page, `${receiver.base}/failing`, { description: 'Flaky' });
    await page.goto(`${env.server.url}/webhooks/${endpoint.id}`);
    await page.getByRole('button', { name: 'Send Test Event' }).click();

    // Three attempts (WEBHOOK_RETRY_SCHEDULE=0,1s,1s), then failed; three failures in a row disable the endpoint,
    // which the page hears over the socket.
    const failed = row(page, 'failed');
    await failed.waitFor();
    expect(await failed.getByTestId('last-status').textContent()).toBe('500');
    await page
      .getByTestId('endpoint-status')
      .getByText(/^Disabled after 3 failures on /)
      .waitFor();
    await failed.getByRole('button', { name: /^Attempts of / }).click();
    const excerpts = page.getByTestId('response-excerpt');
    await expect.poll(() => excerpts.count()).toBe(3);
    for (const text of await excerpts.allTextContents()) expect(text).toBe(answer);
    expect(await page.locator('[data-testid="response-excerpt"] b').count()).toBe(0);
    expect(receiver.to('/failing')).toHaveLength(3);

    // Replay waits for the endpoint to be on.
    expect(await failed.getByRole('button', { name: /^Replay / }).isDisabled()).toBe(true);
    receiver.answers.set('/failing', { status: 204, body: '' });
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByTestId('endpoint-status').getByText('Enabled').waitFor();
    await failed.getByRole('button', { name: /^Replay / }).click();
    await row(page, 'succeeded').waitFor();
    expect(await row(page, 'succeeded').getByTestId('last-status').textContent()).toBe('204');
    await expect.poll(() => row(page).count()).toBe(2);
    // The same message: the receiver can drop a repeat by its webhook-id.
    const ids = receiver.to('/failing').map((r) => r.headers[WEBHOOK_HEADERS.id]);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(1);
  });

  it('rotates the secret with overlap: both secrets sign deliveries until the stated time', async () => {
    const page = await adminPage();
    const { id, secret } = await createOnPage(page, `${receiver.base}/rotated`, 'Rotating');
    await page.getByRole('button', { name: 'Rotate Secret' }).click();
    await page
      .getByRole('dialog', { name: 'Rotate the signing secret' })
      .getByRole('button', { name: 'Rotate Secret' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'New signing secret' });
    const rotated = (await dialog.getByTestId('webhook-secret').textContent()) ?? '';
    expect(rotated).not.toBe(secret);
    expect(await dialog.getByTestId('rotation-overlap').textContent()).toMatch(
      /^The previous secret keeps working until \d+\/\d+\/\d\d \d+:\d\d[ap]m/,
    );
    await dialog.getByRole('button', { name: 'I have copied it' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await pageHolds(page, rotated.slice(WEBHOOK_SECRET_PREFIX.length))).toBe(false);
    await page.getByText(/^Still signs deliveries until /).waitFor();
    await page.getByRole('button', { name: 'Send Test Event' }).click();
    await expect.poll(() => receiver.to('/rotated').length).toBe(1);
    const got = receiver.to('/rotated')[0]!;
    checkSignature(rotated, got);
    checkSignature(secret, got);
    await row(page, 'succeeded').waitFor();

    // Delete after the confirmation.
    await page.getByRole('link', { name: 'Delete' }).click();
    await page.waitForURL(`${env.server.url}/webhooks/delete/${id}`);
    await page.getByTestId('confirm-text').getByText(`${receiver.base}/rotated`).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${env.server.url}/webhooks`);
    await page.getByRole('table', { name: 'Webhook endpoints' }).waitFor();
    expect(await page.locator(`[data-webhook-id="${id}"]`).count()).toBe(0);
    expect((await callApi(page, 'GET', `/v2/webhooks/${id}`)).status).toBe(404);
  });

  it('checks the URL and the events before sending, with the server’s messages', async () => {
    const page = await adminPage();
    await page.goto(`${env.server.url}/webhooks/add`);
    await page.getByLabel('URL', { exact: true }).fill('http://example.com/hook');
    await page.getByLabel('identity.changed').uncheck();
    await page.getByLabel('job.completed').uncheck();
    await page.getByRole('button', { name: 'Create Endpoint' }).click();
    await validationBanner(page).waitFor();
    expect(await fieldError(page, 'URL')).toBe(WEBHOOK_MESSAGES.urlScheme);
    await validationBanner(page).getByText(WEBHOOK_MESSAGES.events).waitFor();
    await page.getByLabel('URL', { exact: true }).fill('https://user:pw@example.com/hook');
    expect(await fieldError(page, 'URL')).toBe(WEBHOOK_MESSAGES.urlCredentials);
  });

  it('shows super and root every organization’s endpoints, with the organization, and filters by it', async () => {
    const page = await adminPage();
    const ours = await createByApi(page, `${receiver.base}/ours`);
    const root = await openAs('root');
    const theirs = await createByApi(root, `${receiver.base}/roots`, { organizationId: otherOrganization });
    await root.goto(`${env.server.url}/webhooks`);
    const table = root.getByRole('table', { name: 'Webhook endpoints' });
    await table.locator(`[data-webhook-id="${ours.id}"]`).getByRole('link', { name: ORGANIZATION }).waitFor();
    await table.locator(`[data-webhook-id="${theirs.id}"]`).waitFor();
    await root.getByLabel('Organization').click();
    await root.getByRole('option', { name: ORGANIZATION }).click();
    await table.locator(`[data-webhook-id="${theirs.id}"]`).waitFor({ state: 'detached' });
    await table.locator(`[data-webhook-id="${ours.id}"]`).waitFor();
    // The administrator sees their own organization's only.
    await page.goto(`${env.server.url}/webhooks`);
    await page.locator(`[data-webhook-id="${ours.id}"]`).waitFor();
    expect(await page.locator(`[data-webhook-id="${theirs.id}"]`).count()).toBe(0);
  });
});

const VIEWS = [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 1280 },
  { theme: 'light', width: 360 },
  { theme: 'dark', width: 360 },
] as const;

/** axe's WCAG 2.1 AA violations and any sideways scroll of the page as it is now; a screenshot of it. */
async function check(page: Page, name: string, view: (typeof VIEWS)[number]): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}-${view.theme}-${view.width}.png`, fullPage: true });
  expect(
    [...(await axeViolations(page)), ...(await sidewaysScroll(page))],
    `${name} ${view.theme} ${view.width}`,
  ).toEqual([]);
}

describe('WCAG 2.1 AA and screenshots', () => {
  /** An endpoint with a succeeded test delivery, and one whose failures disabled it. */
  const made = { ok: 0, failing: 0 };
  beforeAll(async () => {
    receiver.answers.set('/axe-failing', {
      status: 503,
      body: 'Service Unavailable\n<html><body>maintenance</body></html>',
    });
    const page = await adminPage();
    made.ok = (await createByApi(page, `${receiver.base}/axe-ok`, { description: 'Billing events' })).id;
    made.failing = (await createByApi(page, `${receiver.base}/axe-failing`, { description: 'Old receiver' })).id;
    for (const id of [made.ok, made.failing]) {
      expect((await callApi(page, 'POST', `/v2/webhooks/${id}/test`)).status).toBe(202);
    }
    // Both done (expect.poll is for tests, not hooks): a look at each log every half second.
    const latest = async (id: number) => {
      const log = await callApi(page, 'GET', `/v2/webhooks/${id}/deliveries`);
      return (log.body as { webhookDeliveries: { deliveries: { status: string }[] } }).webhookDeliveries.deliveries[0]
        ?.status;
    };
    for (let tries = 0; (await latest(made.ok)) !== 'succeeded' || (await latest(made.failing)) !== 'failed'; tries++) {
      if (tries > 60) throw new Error('The deliveries of the accessibility checks did not end.');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await page.context().close();
  });

  describe.each(VIEWS)('in the $theme theme at $width px', (view) => {
    it('the list, an endpoint with an opened delivery, a failed one, the editor and the delete confirmation', async () => {
      const page = await adminPage(view.theme, view.width);
      const pending = trackRequests(page);
      await openSettled(page, `${env.server.url}/webhooks`, pending);
      await check(page, 'list', view);

      await openSettled(page, `${env.server.url}/webhooks/${made.ok}`, pending);
      await row(page, 'succeeded')
        .getByRole('button', { name: /^Attempts of / })
        .click();
      await page.getByTestId('webhook-attempt').waitFor();
      await check(page, 'endpoint', view);

      await openSettled(page, `${env.server.url}/webhooks/${made.failing}`, pending);
      await row(page, 'failed')
        .getByRole('button', { name: /^Attempts of / })
        .click();
      await expect.poll(() => page.getByTestId('webhook-attempt').count()).toBe(3);
      await check(page, 'failed-delivery', view);

      await openSettled(page, `${env.server.url}/webhooks/edit/${made.ok}`, pending);
      await page.getByLabel('Description').waitFor();
      await check(page, 'edit', view);

      await openSettled(page, `${env.server.url}/webhooks/delete/${made.failing}`, pending);
      await page.getByTestId('confirm-text').waitFor();
      await check(page, 'delete', view);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(`${env.server.url}/webhooks/${made.failing}`);
    });

    it('the new-endpoint form, with a server error, the secret dialogs and the rotation, and root’s list', async () => {
      const page = await adminPage(view.theme, view.width);
      const pending = trackRequests(page);
      await openSettled(page, `${env.server.url}/webhooks/add`, pending);
      await check(page, 'new', view);

      // A name that does not resolve: the server's refusal, on the field.
      await page.getByLabel('URL', { exact: true }).fill('https://no-such-host.invalid/hook');
      await page.getByRole('button', { name: 'Create Endpoint' }).click();
      await expect.poll(() => fieldError(page, 'URL')).toBe(WEBHOOK_MESSAGES.unresolved('no-such-host.invalid'));
      await check(page, 'server-error', view);

      await page.getByLabel('URL', { exact: true }).fill(`${receiver.base}/axe-${view.theme}-${view.width}`);
      await page.getByRole('button', { name: 'Create Endpoint' }).click();
      const created = page.getByRole('dialog', { name: 'Signing secret of the new endpoint' });
      await created.getByTestId('webhook-secret').waitFor();
      await check(page, 'secret-new', view);
      await created.getByRole('button', { name: 'I have copied it' }).click();
      await created.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Rotate Secret' }).click();
      const confirm = page.getByRole('dialog', { name: 'Rotate the signing secret' });
      await confirm.waitFor();
      await check(page, 'rotate', view);
      await confirm.getByRole('button', { name: 'Rotate Secret' }).click();
      const rotated = page.getByRole('dialog', { name: 'New signing secret' });
      await rotated.getByTestId('rotation-overlap').waitFor();
      await check(page, 'secret-rotated', view);
      await rotated.getByRole('button', { name: 'I have copied it' }).click();

      const root = await openAs('root', { colorScheme: view.theme, width: view.width, height: 900 });
      const rootPending = trackRequests(root);
      await openSettled(root, `${env.server.url}/webhooks`, rootPending);
      await root.getByRole('link', { name: ORGANIZATION }).first().waitFor();
      await check(root, 'root-list', view);
    });
  });
});

describe('a server without WEBHOOK_ALLOW_PRIVATE', () => {
  let strict: RunningServer;
  beforeAll(async () => {
    strict = await startServer();
    await acceptTermsAsRoot(strict.url);
  });
  afterAll(async () => {
    await strict?.stop();
  });

  it('refuses 10.0.0.1 with its message on the URL field, and the form with it passes WCAG 2.1 AA', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await stillPages(context);
    const page = await context.newPage();
    await signInAsRoot(page, strict.url);
    const organization = await makeOrganization(page, `Strict ${process.pid}`);
    await page.goto(`${strict.url}/webhooks/add`);
    await page.getByLabel('Organization').click();
    await page.getByRole('option', { name: `Strict ${process.pid}` }).click();
    await page.getByLabel('URL', { exact: true }).fill('https://10.0.0.1/hook');
    await page.getByRole('button', { name: 'Create Endpoint' }).click();
    const refusal = WEBHOOK_MESSAGES.blockedAddress('10.0.0.1', 'private');
    await expect.poll(() => fieldError(page, 'URL')).toBe(refusal);
    await validationBanner(page).getByText(refusal).waitFor();
    expect((await callApi(page, 'GET', `/v2/webhooks?organizationId=${organization}`)).body).toEqual({ webhooks: {} });
    for (const view of VIEWS) {
      await page.setViewportSize({ width: view.width, height: 900 });
      await page.emulateMedia({ colorScheme: view.theme });
      await check(page, 'refused', view);
    }
    await context.close();
  });
});
