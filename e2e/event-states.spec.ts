/**
 * What shows only on an event passes WCAG 2.1 AA too (issue 32 item 1): the offline warning (the socket gone for
 * more than 3 s), an alert of each type the alert stack shows, an open dialog, the user menu and the navigation
 * menu open, and the impersonation bar; each in light and dark, wide and narrow (e2e/support/state-checks.ts).
 * Every state is reached by a real action: a form saved, a session ended from elsewhere, lookups crossing usage
 * alert shares, a click, the server stopped.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, cookieHeader, useServerAndBrowser } from './support/browser';
import { usePages } from './support/pages';
import { holdPort, seedUser } from './support/server';
import {
  checkSharedState,
  checkStateInViews,
  hiddenUnderTopBar,
  NARROW,
  STATE_VIEWS,
  type StateView,
  viewOptions,
} from './support/state-checks';

const ivy = seedUser('user', { name: 'Ivy Customer' });
const env = useServerAndBrowser({ users: [ivy] });
const openAs = usePages(env);
const ivyId = () => env.server.users.find((u) => u.email === ivy.email)!.id;

/** A page signed in as root in `view`, at `path`, with the console's navigation finished. */
async function rootAt(view: StateView, path = '/'): Promise<Page> {
  const page = await openAs('root', viewOptions(view));
  await page.goto(`${env.server.url}${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

const alertOf = (page: Page, title: string) =>
  page.getByTestId('alert-stack').getByRole('alert').filter({ hasText: title });

async function made<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const res = await callApi(page, method, path, body);
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}
const first = <T>(keyed: Record<string, T>) => Object.values(keyed)[0]!;

describe('alerts of each type (spec §3 alert types)', () => {
  it('success: a saved profile', async () => {
    const problems = await checkStateInViews(
      'success alert',
      (view) => rootAt(view, '/profile'),
      async (page) => {
        await page.getByLabel('Title').fill(`Maintainer ${randomUUID().slice(0, 4)}`);
        await page.getByRole('button', { name: 'Save' }).click();
        await alertOf(page, 'Profile Saved').waitFor();
      },
    );
    expect(problems).toEqual([]);
  });

  it('info: the session ended from elsewhere (spec §4 Signed Out)', async () => {
    const problems = await checkStateInViews(
      'info alert',
      (view) => rootAt(view, '/usage'),
      async (page) => {
        const cookie = await cookieHeader(page.context(), env.server.url);
        const out = await fetch(`${env.server.url}/auth/logout`, {
          method: 'PUT',
          headers: { cookie, 'x-requested-with': 'e2e' },
        });
        expect(out.status).toBe(200);
        await alertOf(page, 'Signed Out').waitFor({ timeout: 15_000 });
        await page.waitForURL((url) => url.pathname === '/login');
      },
    );
    expect(problems).toEqual([]);
  });

  it('warning and error: usage alerts at 50 % and 100 % of the monthly limit, pushed to open pages', async () => {
    // Root makes an organization whose calls cost $0.001 against a $0.01 limit, with shares at 50 and 100 %.
    const setup = await openAs('root');
    const org = first(
      (
        await made<{ organizations: Record<string, { id: number }> }>(setup, 'POST', '/v2/organizations', {
          name: `States ${randomUUID().slice(0, 6)}`,
        })
      ).organizations,
    );
    await made(setup, 'POST', '/v2/contracts', {
      organizationId: org.id,
      startsAt: new Date(Date.now() - 86_400_000).toISOString(),
      endsAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      pricePerRequest: 0.001,
      pricePerIdentity: 0,
      monthlyLimit: 0.01,
    });
    await made(setup, 'PUT', `/v2/organizations/${org.id}/usage-alerts`, { thresholdsOn: true, thresholds: [50, 100] });
    const admin = first(
      (
        await made<{ users: Record<string, { id: number }> }>(setup, 'POST', '/v2/users', {
          email: `ada-${randomUUID()}@tessera.test`,
          name: 'Ada Admin',
          role: 'admin',
          organizationId: org.id,
        })
      ).users,
    );
    // The administrator's console open in every view (root acting as them, as support staff would).
    const pages: { view: StateView; page: Page }[] = [];
    for (const view of STATE_VIEWS) {
      const page = await openAs('root', viewOptions(view));
      await made(page, 'PUT', `/auth/impersonate/${admin.id}`);
      await page.goto(`${env.server.url}/usage`);
      await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
      pages.push({ view, page });
    }
    const key = first(
      (
        await made<{ keys: Record<string, { id: string; secret: string }> }>(pages[0]!.page, 'POST', '/v2/keys', {
          name: 'event states',
        })
      ).keys,
    );
    const lookups = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        const res = await fetch(`${env.server.url}/v2/identities/byEmail?email=${randomUUID()}@nobody.example`, {
          headers: { authorization: `Bearer ${key.id}${key.secret}` },
        });
        await res.arrayBuffer();
        expect(res.status).toBe(200);
      }
    };
    const warning = 'Usage alert: 50% of the monthly limit';
    const error = 'Usage alert: 100% of the monthly limit';
    const problems = await checkSharedState(
      'warning alert',
      pages,
      () => lookups(5),
      (page) => alertOf(page, warning).waitFor({ timeout: 15_000 }),
    );
    for (const { page } of pages) {
      await alertOf(page, warning).getByRole('button', { name: 'Close' }).click();
      await alertOf(page, warning).waitFor({ state: 'detached' });
    }
    problems.push(
      ...(await checkSharedState(
        'error alert',
        pages,
        () => lookups(5),
        (page) => alertOf(page, error).waitFor({ timeout: 15_000 }),
      )),
    );
    expect(problems).toEqual([]);
  });
});

describe('dialogs and menus open', () => {
  it('a dialog: revoking the session in use asks first', async () => {
    const problems = await checkStateInViews(
      'open dialog',
      (view) => rootAt(view, '/sessions'),
      async (page) => {
        const mine = page.getByTestId('session-row').filter({ hasText: 'This session' });
        await mine.getByRole('button', { name: /^Revoke/ }).click();
        await page.getByRole('dialog', { name: 'Revoke Session' }).waitFor();
      },
    );
    expect(problems).toEqual([]);
  });

  it('the user menu', async () => {
    const problems = await checkStateInViews(
      'user menu open',
      (view) => rootAt(view),
      async (page) => {
        await page.getByRole('button', { name: 'User menu' }).click();
        await page.getByTestId('user-card').getByRole('button', { name: 'Sign Out' }).waitFor();
      },
    );
    expect(problems).toEqual([]);
  });

  it('the navigation menu, a group opened (from the menu button when narrow)', async () => {
    const problems = await checkStateInViews(
      'navigation menu open',
      (view) => rootAt(view),
      async (page, view) => {
        if (view.width === NARROW) await page.getByRole('button', { name: 'Open menu' }).click();
        const drawer = page.getByTestId('nav-drawer');
        await drawer.getByRole('button', { name: 'System' }).click();
        await drawer.getByRole('link', { name: 'Sessions' }).waitFor();
      },
    );
    expect(problems).toEqual([]);
  });
});

describe('impersonation (issue 32 item 2)', () => {
  it('shows a bar naming who acts as whom, that passes and covers nothing', async () => {
    const problems = await checkStateInViews(
      'impersonating',
      (view) => rootAt(view, `/users/${ivyId()}`),
      async (page) => {
        await page.getByRole('button', { name: 'Impersonate' }).click();
        await page.waitForURL(`${env.server.url}/`);
        const bar = page.getByRole('region', { name: 'Impersonation' });
        await bar.waitFor();
        await bar.getByText('Ivy Customer', { exact: true }).waitFor();
        await bar.getByText('Root', { exact: true }).waitFor();
        await bar.getByRole('button', { name: 'Stop Impersonating' }).waitFor();
        // The page starts below the bar, in every view (once the top bar's measured height has reached the layout).
        await expect.poll(() => hiddenUnderTopBar(page, 'main h1')).toBe(0);
      },
    );
    expect(problems).toEqual([]);
  });
});

// Last: the server goes away for good.
describe('offline (spec §4: the warning after 3 s without the socket)', () => {
  it('warns readably in every view', async () => {
    const pages: { view: StateView; page: Page }[] = [];
    for (const view of STATE_VIEWS) pages.push({ view, page: await rootAt(view, '/usage') });
    // Every page's own module must be in before the server goes (a guarded module failing to load signs out).
    for (const { page } of pages) await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    let held: { release: () => Promise<void> } | undefined;
    try {
      const problems = await checkSharedState(
        'offline',
        pages,
        async () => {
          await env.server.stop();
          held = await holdPort(env.server.port);
        },
        (page) =>
          page.getByTestId('offline-indicator').getByText('The server is currently unreachable.').waitFor({
            timeout: 30_000,
          }),
      );
      expect(problems).toEqual([]);
    } finally {
      await held?.release();
    }
  });
});
