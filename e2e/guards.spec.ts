/**
 * Page guards (spec §6): every guarded level sends a visitor below it to /login; an anonymous one with the page
 * to come back to, a signed-in one plainly (still signed in), a signer to the agreement for a user-level page.
 */
import { hasRank, type Role } from '@tessera/common/roles';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, newPage, signIn, signInAsRoot, useServerAndBrowser } from './support/browser';
import { seedUser } from './support/server';

const user = seedUser('user', { name: 'Una User' });
const admin = seedUser('admin', { name: 'Ada Admin' });
const superUser = seedUser('super', { name: 'Sue Super' });
const signer = seedUser('user', { name: 'Sid Signer', signer: true });

const env = useServerAndBrowser({ users: [user, admin, superUser, signer] });

/**
 * The admin-level page: the contract of the administrator's own organization, made here, so being let in never
 * hangs on whether some contract 1 exists (a missing one sends its reader on to /error/404 once its fetch answers).
 */
let contractPage = '';
beforeAll(async () => {
  const { context, page } = await newPage(env.browser);
  await signInAsRoot(page, env.server.url);
  const org = await callApi(page, 'POST', '/v2/organizations', { name: `Guards ${process.pid}` });
  const organizationId = Number(Object.keys((org.body as { organizations: object }).organizations)[0]);
  const contract = await callApi(page, 'POST', '/v2/contracts', {
    organizationId,
    startsAt: new Date(Date.now() - 86_400_000).toISOString(),
    endsAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
    pricePerRequest: 0.001,
    pricePerIdentity: 0,
  });
  expect(contract.status, JSON.stringify(contract.body)).toBe(201);
  contractPage = `/contracts/${Object.keys((contract.body as { contracts: object }).contracts)[0]}`;
  const adminId = env.server.users.find((u) => u.email === admin.email)!.id;
  const moved = await callApi(page, 'PUT', `/v2/users/${adminId}`, { organizationId });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  await context.close();
});

/** One page per guarded level above signer, with the title it has when let in. */
const guarded = (): { path: string; role: Role; title: string }[] => [
  { path: '/usage', role: 'user', title: 'Usage' },
  { path: contractPage, role: 'admin', title: 'Contract' },
  { path: '/sessions', role: 'super', title: 'Sessions' },
  { path: '/releases', role: 'root', title: 'Releases' },
];

async function expectLetIn(page: Page, path: string, title: string) {
  await page.goto(`${env.server.url}${path}`);
  await expect.poll(() => page.title(), { message: path }).toBe(`Tessera - ${title}`);
  expect(new URL(page.url()).pathname, path).toBe(path);
}

async function expectSentTo(page: Page, path: string, target: string) {
  await page.goto(`${env.server.url}${path}`);
  await page.waitForURL((url) => url.pathname !== path);
  const url = new URL(page.url());
  expect(`${url.pathname}${url.search}`, path).toBe(target);
}

describe('page guards (spec §6)', () => {
  it('send an anonymous visitor of a user, admin, super and root page to /login with the page to return to', async () => {
    const { context, page } = await newPage(env.browser);
    for (const { path } of guarded()) {
      await expectSentTo(page, path, `/login?${new URLSearchParams({ returnTo: path })}`);
      await expect.poll(() => page.title()).toBe('Tessera - Sign in');
    }
    await context.close();
  });

  it.each([
    ['user', user],
    ['admin', admin],
    ['super', superUser],
  ] as const)(
    'let a signed-in %s into pages of their rank and below, and send them to /login above it',
    async (role, account) => {
      const { context, page } = await newPage(env.browser);
      await signIn(page, env.server.url, account);
      for (const { path, role: required, title } of guarded()) {
        if (hasRank(role, required)) {
          await expectLetIn(page, path, title);
        } else {
          await expectSentTo(page, path, '/login');
          await expect.poll(() => page.title()).toBe('Tessera - Sign in');
        }
      }
      // Being turned away by a guard does not sign anyone out.
      const self = await callApi(page, 'GET', '/v2/self');
      expect(self).toMatchObject({ status: 200, body: { self: { email: account.email, role } } });
      await context.close();
    },
  );

  it('let root into every guarded page', async () => {
    const { context, page } = await newPage(env.browser);
    await signInAsRoot(page, env.server.url);
    for (const { path, title } of guarded()) await expectLetIn(page, path, title);
    await context.close();
  });

  it('send a signer to the agreement from a user-level page, and to /login from an admin or super page', async () => {
    const { context, page } = await newPage(env.browser);
    await signIn(page, env.server.url, signer);
    await expectSentTo(page, '/usage', '/terms');
    await page.getByRole('button', { name: 'I accept this Agreement' }).waitFor();
    await expectSentTo(page, contractPage, '/login');
    await expectSentTo(page, '/sessions', '/login');
    await context.close();
  });
});
