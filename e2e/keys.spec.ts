/**
 * API keys in the console (issue 15) in Chromium against the real server: a key is made and shown once, works
 * against the data API, is rotated (the old secret still working in its grace) and revoked (then refused); a
 * comma-separated list is revoked after one confirmation; a key revoked in one tab leaves the list of another;
 * and the keys pages pass WCAG 2.1 AA in both themes.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, openSettled, trackRequests } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';

const env = useServerAndBrowser();
const openAs = usePages(env);

const rootPage = (options: PageOptions = {}) => openAs('root', options);

/** Calls the data API with a key, as a customer's program does: from outside the browser. */
async function lookup(key: string): Promise<number> {
  const res = await fetch(`${env.server.url}/v2/identities/byEmail?email=someone@example.com`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await res.arrayBuffer();
  return res.status;
}

/** Makes a key on /keys/add and returns the key the once-only dialog shows, after closing it. */
async function createOnPage(page: Page, name: string): Promise<{ id: string; key: string; curl: string }> {
  await page.goto(`${env.server.url}/keys/add`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create Key' }).click();
  const dialog = page.getByRole('dialog', { name: `New key ${name}` });
  await dialog.waitFor();
  const key = (await dialog.getByTestId('new-key').textContent()) ?? '';
  const curl = (await dialog.getByTestId('new-key-curl').textContent()) ?? '';
  expect(key).toMatch(/^[A-Za-z0-9]{48}$/);
  await dialog.getByText('it will not be shown again').waitFor();
  await dialog.getByRole('button', { name: 'I have copied it' }).click();
  const id = key.slice(0, 16);
  await page.waitForURL(`${env.server.url}/keys/${id}`);
  await page.getByRole('heading', { name }).waitFor();
  return { id, key, curl };
}

/** Whether the secret is anywhere in the page's text, markup or store. */
async function pageHolds(page: Page, secret: string): Promise<boolean> {
  return page.evaluate(
    (s) => document.documentElement.outerHTML.includes(s) || document.body.innerText.includes(s),
    secret,
  );
}

describe('API keys (issue 15)', () => {
  it('makes a key, shows it once, and it calls the data API; rotates with grace; revokes', async () => {
    const page = await rootPage();
    const made = await createOnPage(page, 'Production');
    const secret = made.key.slice(16);
    expect(made.curl).toBe(
      `curl -H "Authorization: Bearer ${made.key}" "${env.server.url}/v2/identities/byEmail?email=someone@example.com"`,
    );
    // Closed: no copy in the page, and the key's page shows only the last four.
    expect(await pageHolds(page, secret)).toBe(false);
    await page.getByText(`…${secret.slice(-4)}`).waitFor();
    expect(await lookup(made.key)).toBe(200);

    // Rotate with an hour's grace: a new key shown once; the old one still works.
    await page.getByRole('button', { name: 'Rotate' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate Production' });
    await rotate.getByRole('button', { name: 'Rotate' }).click();
    const shown = page.getByRole('dialog', { name: 'New secret for Production' });
    const rotated = (await shown.getByTestId('new-key').textContent()) ?? '';
    expect(rotated.slice(0, 16)).toBe(made.id);
    expect(rotated).not.toBe(made.key);
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await pageHolds(page, rotated.slice(16))).toBe(false);
    await page.getByText('in grace').waitFor();
    expect(await lookup(rotated)).toBe(200);
    expect(await lookup(made.key)).toBe(200);

    // Revoke after the confirmation: both secrets are refused.
    await page.getByRole('link', { name: 'Revoke' }).click();
    await page.waitForURL(`${env.server.url}/keys/delete/${made.id}`);
    await page.getByTestId('confirm-text').getByText('Production').waitFor();
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL((url) => url.pathname === '/users/1');
    expect(await lookup(rotated)).toBe(401);
    expect(await lookup(made.key)).toBe(401);
  });

  it("links the user card's menu to the user's own keys", async () => {
    const page = await rootPage();
    await page.goto(`${env.server.url}/usage`);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByTestId('user-card').getByRole('link', { name: 'Your API keys' }).click();
    await page.waitForURL(`${env.server.url}/users/1#keys`);
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    await page.getByRole('table', { name: 'API keys' }).waitFor();
  });

  it('revokes a comma-separated list after one confirmation, and another open tab sees them leave', async () => {
    const page = await rootPage();
    const other = await rootPage();
    const ids: string[] = [];
    for (const name of ['Batch A', 'Batch B', 'Batch C']) {
      const made = await callApi(page, 'POST', '/v2/keys', { name });
      expect(made.status).toBe(201);
      ids.push(Object.keys((made.body as { keys: Record<string, unknown> }).keys)[0] ?? '');
    }
    await other.goto(`${env.server.url}/users/1`);
    for (const id of ids) await other.locator(`[data-key-id="${id}"]`).waitFor();

    await page.goto(`${env.server.url}/keys/delete/${ids.join(',')}`);
    await page.getByRole('heading', { name: 'Revoke 3 API Keys' }).waitFor();
    const text = (await page.getByTestId('confirm-text').textContent()) ?? '';
    for (const name of ['Batch A', 'Batch B', 'Batch C']) expect(text).toContain(name);
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL((url) => url.pathname === '/users/1');

    // Pushed over the socket: the other tab's list loses them without a reload.
    for (const id of ids) await other.locator(`[data-key-id="${id}"]`).waitFor({ state: 'detached' });
    for (const id of ids) expect((await callApi(page, 'GET', `/v2/keys/${id}`)).status).toBe(404);
  });

  it('a key made, renamed or revoked in one tab appears, changes or goes in another', async () => {
    const page = await rootPage();
    const other = await rootPage();
    await other.goto(`${env.server.url}/users/1`);
    await other.getByRole('table', { name: 'API keys' }).waitFor();
    const made = await callApi(page, 'POST', '/v2/keys', { name: 'Pushed' });
    const id = Object.keys((made.body as { keys: Record<string, unknown> }).keys)[0] ?? '';
    const row = other.locator(`[data-key-id="${id}"]`);
    await row.getByText('Pushed').waitFor();
    expect(JSON.stringify(made.body)).toContain('secret');
    await callApi(page, 'PUT', `/v2/keys/${id}`, { name: 'Pushed Again' });
    await row.getByText('Pushed Again').waitFor();
    // A tab showing the key learns that it was revoked elsewhere.
    await other.goto(`${env.server.url}/keys/${id}`);
    await other.getByRole('heading', { name: 'Pushed Again' }).waitFor();
    await callApi(page, 'DELETE', `/v2/keys/${id}`);
    await other.getByTestId('key-gone').waitFor();
  });

  it('checks each field of a new key and warns about legacy signing', async () => {
    const page = await rootPage();
    await page.goto(`${env.server.url}/keys/add`);
    await page.getByLabel('Name', { exact: true }).fill('Checked');
    await page.getByLabel('IP allowlist').fill('10.0.0.0/8\n300.1.1.1');
    await page.getByLabel('Rate limit (requests a minute)').fill('0');
    await page.getByLabel("Accept the original API's MD5-signed form (legacy)").check();
    await page.getByTestId('legacy-warning').waitFor();
    await page.getByRole('button', { name: 'Create Key' }).click();
    await page.getByTestId('validation-banner').waitFor();
    await page.getByText('"300.1.1.1" is not an IPv4 or IPv6 address or CIDR range.').first().waitFor();
    await page.getByText('Please provide a limit from 1 to 1,000,000.').first().waitFor();
    await page.getByLabel('IP allowlist').fill('10.0.0.0/8\n2001:db8::/32');
    await page.getByLabel('Rate limit (requests a minute)').fill('600');
    await page.getByRole('button', { name: 'Create Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New key Checked' });
    const key = (await dialog.getByTestId('new-key').textContent()) ?? '';
    await dialog.getByRole('button', { name: 'I have copied it' }).click();
    await page.waitForURL(`${env.server.url}/keys/${key.slice(0, 16)}`);
    await page.getByText('10.0.0.0/8, 2001:db8::/32').waitFor();
    await page.getByText('600 a minute').waitFor();
    await page.getByText('legacy-signed').waitFor();
  });

  describe.each(['light', 'dark'] as const)('WCAG 2.1 AA in the %s theme', (theme) => {
    it('the keys list, the add page, a key, its editor, the once-only dialog and the rotation dialog', async () => {
      const page = await rootPage({ colorScheme: theme });
      const pending = trackRequests(page);
      const made = await callApi(page, 'POST', '/v2/keys', {
        name: `Axe ${theme}`,
        legacy: true,
        expiresAt: new Date(Date.now() + 2 * 24 * 3600_000).toISOString(),
      });
      const id = Object.keys((made.body as { keys: Record<string, unknown> }).keys)[0] ?? '';
      for (const path of ['/users/1', '/organizations/1', '/keys/add', `/keys/${id}`, `/keys/edit/${id}`]) {
        await openSettled(page, `${env.server.url}${path}`, pending);
        expect(await axeViolations(page), path).toEqual([]);
      }
      await openSettled(page, `${env.server.url}/keys/${id}`, pending);
      await page.getByRole('button', { name: 'Rotate' }).click();
      await page.getByRole('dialog', { name: `Rotate Axe ${theme}` }).waitFor();
      expect(await axeViolations(page), 'rotation dialog').toEqual([]);
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
      await page.getByRole('dialog', { name: `New secret for Axe ${theme}` }).waitFor();
      expect(await axeViolations(page), 'once-only dialog').toEqual([]);
      await page.getByRole('button', { name: 'I have copied it' }).click();
      await openSettled(page, `${env.server.url}/keys/delete/${id}`, pending);
      await page.getByTestId('confirm-text').waitFor();
      expect(await axeViolations(page), 'revoke confirmation').toEqual([]);
    });
  });
});
