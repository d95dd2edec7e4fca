/**
 * Signing out (spec §2 user card, §4 session, §7 PUT /auth/logout): 'Sign Out' ends the session on the server,
 * and the browser's other tabs hear it over the socket and show 'Signed Out' / 'Your session has ended.'
 */
import { describe, expect, it } from 'vitest';
import { callApi, cookieHeader, newPage, signInWithForm, useServerAndBrowser } from './support/browser';
import { seedUser } from './support/server';
import { watchSocket } from './support/socket';

const lou = seedUser('user', { name: 'Lou Logout' });

const env = useServerAndBrowser({ users: [lou] });
const louId = () => env.server.users[0]!.id;

/** A call with only the given Cookie header, from outside any browser. */
const statusWith = async (cookie: string) =>
  (await fetch(`${env.server.url}/v2/terms`, { headers: { cookie, accept: 'application/json' } })).status;

describe('sign out (spec §4)', () => {
  it("ends the session on the server and signs the browser's other tab out with a notice", async () => {
    const { context, page } = await newPage(env.browser);
    await signInWithForm(page, env.server.url, lou);
    await page.waitForURL(`${env.server.url}/`);
    const oldCookie = await cookieHeader(context, env.server.url);
    expect(oldCookie).toContain('tessera_session=');
    expect(await statusWith(oldCookie)).toBe(200);

    // The same person in another browser has a session of their own.
    const elsewhere = await newPage(env.browser);
    await signInWithForm(elsewhere.page, env.server.url, lou);

    const tab = await context.newPage();
    const socket = watchSocket(tab);
    await tab.goto(`${env.server.url}/usage`);
    await expect.poll(() => tab.title()).toBe('Tessera - Usage');
    await socket.subscribedToSelf(louId());

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByTestId('user-card').getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');

    // The other tab is told, without reloading, and leaves for /login.
    const notice = tab.getByTestId('alert-stack').getByRole('alert');
    await notice.getByText('Signed Out').waitFor();
    await notice.getByText('Your session has ended.').waitFor();
    await tab.waitForURL((url) => url.pathname === '/login');
    expect(socket.received).toContainEqual(['push', { self: expect.objectContaining({ id: 0, role: 'anonymous' }) }]);

    // The old cookie opens nothing any more, even replayed from outside the browser.
    expect(await statusWith(oldCookie)).toBe(401);
    const self = await fetch(`${env.server.url}/v2/self`, { headers: { cookie: oldCookie } });
    expect(((await self.json()) as { self: { id: number } }).self.id).toBe(0);
    expect(await callApi(tab, 'GET', '/v2/self')).toMatchObject({ body: { self: { id: 0 } } });
    await tab.goto(`${env.server.url}/usage`);
    await tab.waitForURL(`${env.server.url}/login?returnTo=%2Fusage`);

    // Only this browser's session ended.
    expect(await callApi(elsewhere.page, 'GET', '/v2/self')).toMatchObject({ body: { self: { email: lou.email } } });
    await elsewhere.context.close();
    await context.close();
  });

  it("goes to plain /login from any page, so the next person is not sent to the last one's page", async () => {
    const { context, page } = await newPage(env.browser);
    await signInWithForm(page, env.server.url, lou);
    await page.waitForURL(`${env.server.url}/`);
    await page.goto(`${env.server.url}/usage`);
    await expect.poll(() => page.title()).toBe('Tessera - Usage');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByTestId('user-card').getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await context.close();
  });
});
