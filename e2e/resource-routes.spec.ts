/**
 * Spec §2's resource route pattern in Chromium against the real server (issue 32 item 8, decision 0062): page
 * titles by the spec's page names, /users/add creating a user, and comma-separated id lists viewing several
 * organizations, users, contracts, templates and keys, with axe-core in light and dark, wide and narrow.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { usePages } from './support/pages';
import { STATE_VIEWS, settle, viewName, viewOptions } from './support/state-checks';

const env = useServerAndBrowser();
const openAs = usePages(env);
const SHOTS = '/tmp/shots-resource-routes';
mkdirSync(SHOTS, { recursive: true });

const ids = { organizations: [] as number[], users: [] as number[], keys: [] as string[], templates: [] as number[] };

async function created(page: Page, path: string, body: unknown, area: string): Promise<string> {
  const { status, body: reply } = await callApi(page, 'POST', path, body);
  if (status >= 300) throw new Error(`POST ${path}: ${status} ${JSON.stringify(reply)}`);
  return Object.keys((reply as Record<string, object>)[area]!)[0]!;
}

beforeAll(async () => {
  const page = await openAs('root');
  const stamp = Date.now().toString(36);
  for (const name of ['North', 'South']) {
    const domain = `${name.toLowerCase()}-${stamp}.example`;
    ids.organizations.push(
      Number(await created(page, '/v2/organizations', { name, emailDomain: domain }, 'organizations')),
    );
  }
  for (const [i, organizationId] of ids.organizations.entries()) {
    const email = `person${i}@${i === 0 ? 'north' : 'south'}-${stamp}.example`;
    const body = { email, name: `Person ${i}`, role: 'user', organizationId };
    ids.users.push(Number(await created(page, '/v2/users', body, 'users')));
  }
  for (const name of ['Alpha', 'Beta']) ids.keys.push(await created(page, '/v2/keys', { name }, 'keys'));
  for (const name of ['First', 'Second']) {
    const body = { name, expression: '{ "name": person.name }' };
    ids.templates.push(Number(await created(page, '/v2/templates', body, 'templates')));
  }
});

async function problems(page: Page, name: string): Promise<string[]> {
  await settle(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  return [...(await axeViolations(page)), ...(await sidewaysScroll(page))];
}

describe('resource routes (spec §2)', () => {
  it('titles pages by the spec’s names: Organizations and Templates', async () => {
    const page = await openAs('root');
    for (const [path, title] of [
      [`/organizations/${ids.organizations[0]}`, 'Organizations'],
      ['/organizations/add', 'Organizations'],
      ['/templates/add', 'Templates'],
      [`/templates/${ids.templates[0]}`, 'Templates'],
      ['/users/add', 'User'],
    ]) {
      await page.goto(`${env.server.url}${path}`);
      await expect.poll(() => page.title(), { message: path }).toBe(`Tessera - ${title}`);
    }
  });

  it('views a comma-separated list of each resource, linking to each record', async () => {
    const page = await openAs('root');
    const lists: [string, string, number][] = [
      [`/organizations/${ids.organizations.join(',')}`, '2 Organizations', 2],
      [`/users/${ids.users.join(',')}`, '2 Users', 2],
      [`/keys/${ids.keys.join(',')}`, '2 API Keys', 2],
      [`/templates/${ids.templates.join(',')}`, '2 Templates', 2],
    ];
    for (const [path, heading, rows] of lists) {
      await page.goto(`${env.server.url}${path}`);
      await page.getByTestId('page-title').filter({ hasText: heading }).waitFor();
      await expect.poll(() => page.getByTestId('listed-record').count(), { message: path }).toBe(rows);
    }
    await page.getByTestId('listed-record').first().getByRole('link').click();
    await page.waitForURL(`${env.server.url}/templates/${ids.templates[0]}`);
  });

  it('sends a list naming a record that does not exist to Page Not Found', async () => {
    const page = await openAs('root');
    await page.goto(`${env.server.url}/users/${ids.users[0]},2147483000`);
    await page.waitForURL(`${env.server.url}/error/404`);
  });

  it('creates a user at /users/add', async () => {
    const page = await openAs('root');
    await page.goto(`${env.server.url}/users/add`);
    await page.getByTestId('page-title').filter({ hasText: 'Add User' }).waitFor();
    const email = `added-${Date.now().toString(36)}@example.com`;
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Name', { exact: true }).fill('Added Person');
    await page.getByRole('combobox', { name: 'Organization' }).click();
    await page.getByRole('option', { name: 'North' }).click();
    await page.getByRole('button', { name: 'Add User' }).click();
    await page.waitForURL(/\/users\/\d+$/);
    await page.getByTestId('page-title').filter({ hasText: 'Added Person' }).waitFor();
    expect(await page.getByTestId('alert-stack').textContent()).toContain(`${email} has been sent a link`);
  });

  it('asks which organization at /contracts/add, then writes its contract', async () => {
    const page = await openAs('root');
    await page.goto(`${env.server.url}/contracts/add`);
    await page.getByTestId('page-title').filter({ hasText: 'New Contract' }).waitFor();
    await page.getByRole('combobox', { name: 'Organization' }).click();
    await page.getByRole('option', { name: 'South' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${env.server.url}/contracts/add/${ids.organizations[1]}`);
    await page.getByText('For South.', { exact: false }).first().waitFor();
  });

  for (const view of STATE_VIEWS) {
    it(`the list view and the add form meet WCAG 2.1 AA, ${viewName(view)}`, async () => {
      const page = await openAs('root', viewOptions(view));
      await page.goto(`${env.server.url}/organizations/${ids.organizations.join(',')}`);
      await expect.poll(() => page.getByTestId('listed-record').count()).toBe(2);
      expect(await problems(page, `list-${view.theme}-${view.width}`)).toEqual([]);
      await page.goto(`${env.server.url}/users/add`);
      await page.getByRole('button', { name: 'Add User' }).click(); // empty: the validation errors show
      await page.getByText('Validation failed.').first().waitFor();
      expect(await problems(page, `add-user-${view.theme}-${view.width}`)).toEqual([]);
      await page.goto(`${env.server.url}/contracts/add`);
      await page.getByRole('button', { name: 'Continue' }).click(); // no organization chosen
      await page.getByText('Validation failed.').first().waitFor();
      expect(await problems(page, `add-contract-${view.theme}-${view.width}`)).toEqual([]);
    });
  }
});
