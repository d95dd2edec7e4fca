/**
 * Impersonation in the browser (spec §2 user card, §4, §6, §7 PUT /auth/impersonate/{id} and
 * /auth/stopImpersonating; decision 0006): root acts as a user from the user's page, the card offers
 * 'Stop Impersonating', and stopping returns to root.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, newPage, signInWithForm, useServerAndBrowser } from './support/browser';
import { ROOT, seedUser } from './support/server';

const ivy = seedUser('user', { name: 'Ivy Impersonated' });
const sid = seedUser('user', { name: 'Sid Signer', signer: true });
const sue = seedUser('super', { name: 'Sue Super' });

const env = useServerAndBrowser({ users: [ivy, sid, sue] });
const idOf = (email: string) => env.server.users.find((u) => u.email === email)!.id;

async function openUserCard(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  const card = page.getByTestId('user-card');
  await card.waitFor();
  return card;
}

/** Opens the user's page (/users/{id}) and clicks its 'Impersonate' button; the console goes Home as them. */
async function impersonate(page: Page, userId: number) {
  await page.goto(`${env.server.url}/users/${userId}`);
  await page.getByRole('button', { name: 'Impersonate' }).click();
  await page.waitForURL(`${env.server.url}/`);
}

describe('impersonation (spec §4, §6)', () => {
  it('lets root act as a user, shows Stop Impersonating on the card, and returns to root when clicked', async () => {
    const { context, page } = await newPage(env.browser);
    await signInWithForm(page, env.server.url, ROOT);
    await page.waitForURL(`${env.server.url}/`);
    const root = (await callApi(page, 'GET', '/v2/self')).body as { self: { id: number } };

    await impersonate(page, idOf(ivy.email));
    await page.getByText('Signed in as Ivy Impersonated (Organization User)').waitFor();
    let card = await openUserCard(page);
    await card.getByText(ivy.email).waitFor();
    await card.getByText('Organization User').waitFor();
    expect(await card.getByRole('button', { name: 'Sign Out' }).count()).toBe(0);
    // The server agrees: the session acts as Ivy, with root behind it, and root's pages are closed.
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({
      body: { self: { id: idOf(ivy.email), role: 'user', impersonator: root.self.id } },
    });
    expect(await page.getByTestId('nav-drawer').getByText('System').count()).toBe(0);

    await card.getByRole('button', { name: 'Stop Impersonating' }).click();
    await page.getByText('Signed in as Root (System Maintainer)').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    card = await openUserCard(page);
    await card.getByText(ROOT.email).first().waitFor();
    await card.getByRole('button', { name: 'Sign Out' }).waitFor();
    expect(await card.getByRole('button', { name: 'Stop Impersonating' }).count()).toBe(0);
    const self = (await callApi(page, 'GET', '/v2/self')).body as { self: Record<string, unknown> };
    expect(self.self).toMatchObject({ id: root.self.id, role: 'root' });
    expect(self.self).not.toHaveProperty('impersonator');
    await context.close();
  });

  it('keeps the agreement gate on the real user: root acting as a signer is not sent to /terms, nor may accept for them', async () => {
    const { context, page } = await newPage(env.browser);
    await signInWithForm(page, env.server.url, ROOT);
    await page.waitForURL(`${env.server.url}/`);

    await impersonate(page, idOf(sid.email));
    await page.getByText('Signed in as Sid Signer (Organization User)').waitFor();
    await page.goto(`${env.server.url}/usage`);
    await expect.poll(() => page.title()).toBe('Tessera - Usage');
    const terms = (await callApi(page, 'GET', '/v2/terms')).body as { ndaId: number };
    expect(await callApi(page, 'POST', '/v2/terms/accept', { ndaId: terms.ndaId })).toMatchObject({ status: 403 });

    const card = await openUserCard(page);
    await card.getByRole('button', { name: 'Stop Impersonating' }).click();
    await page.getByText('Signed in as Root (System Maintainer)').waitFor();
    await context.close();
  });

  it('shows a bar on every page naming who acts as whom, kept across a reload, whose Stop returns to the staff user (issue 32 item 2)', async () => {
    const { context, page } = await newPage(env.browser);
    await signInWithForm(page, env.server.url, sue);
    await page.waitForURL(`${env.server.url}/`);
    expect(await page.getByRole('region', { name: 'Impersonation' }).count()).toBe(0);

    await impersonate(page, idOf(ivy.email));
    const bar = page.getByRole('region', { name: 'Impersonation' });
    await bar
      .getByText('Sue Super (System Administrator) is impersonating Ivy Impersonated (Organization User')
      .waitFor();
    await page.goto(`${env.server.url}/usage`);
    await bar.getByText('Sue Super (System Administrator) is impersonating Ivy Impersonated').waitFor();
    // The bar is part of the top bar (a banner landmark), and the page's heading starts below it.
    expect(await page.getByRole('banner').getByRole('region', { name: 'Impersonation' }).count()).toBe(1);
    const barBottom = (await page.getByRole('banner').boundingBox())!;
    const heading = (await page.getByRole('heading', { name: 'Usage', level: 1 }).boundingBox())!;
    expect(heading.y).toBeGreaterThanOrEqual(barBottom.y + barBottom.height);

    await bar.getByRole('button', { name: 'Stop Impersonating' }).click();
    await page.getByText('Signed in as Sue Super (System Administrator)').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await bar.waitFor({ state: 'detached' });
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({ body: { self: { email: sue.email } } });
    // The server agrees nobody is impersonated now.
    expect(await callApi(page, 'GET', '/auth/impersonation')).toMatchObject({ status: 409 });
    await context.close();
  });

  it('is for super and above, and only of someone strictly below them (spec §6)', async () => {
    const { context, page } = await newPage(env.browser);
    await signInWithForm(page, env.server.url, sue);
    await page.waitForURL(`${env.server.url}/`);
    const refused = { status: 403, body: { error: 'You may only impersonate users of a lower role than yours.' } };
    expect(await callApi(page, 'PUT', '/auth/impersonate/1')).toMatchObject(refused); // root, the first user
    expect(await callApi(page, 'PUT', `/auth/impersonate/${idOf(sue.email)}`)).toMatchObject(refused);
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({ body: { self: { email: sue.email } } });

    await signInWithForm(page, env.server.url, ivy);
    await page.waitForURL(`${env.server.url}/`);
    expect(await callApi(page, 'PUT', `/auth/impersonate/${idOf(sid.email)}`)).toMatchObject({ status: 403 });
    expect(await callApi(page, 'GET', '/v2/self')).toMatchObject({ body: { self: { email: ivy.email } } });
    await context.close();
  });
});
