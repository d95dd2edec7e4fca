/**
 * Support Chat in Chromium against the real server (issue 18 items 4 and 6): a visitor is shown how to sign in or
 * the contact form; a user and a staff member (root), in two browser contexts, chat in real time — messages,
 * typing, read marks, links made clickable, close — and both survive a reload of either side. WCAG 2.1 AA in light
 * and dark at 1280 and 390 px. Screenshots go to SCREENSHOT_DIR (default /tmp/shots/chat).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn, signInAsRoot, useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { usePages } from './support/pages';
import { seedUser } from './support/server';

const customer = seedUser('user', { name: 'Una User' });
const env = useServerAndBrowser({ users: [customer] });
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots/chat';
mkdirSync(SHOTS, { recursive: true });

const openAs = usePages(env);

/** A page of its own, signed out, at `width` in `colorScheme`. */
const open = (width: number, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> =>
  openAs(null, { width, colorScheme });

const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
const message = (page: Page, text: string) => log(page).getByTestId('chat-message').filter({ hasText: text });

async function send(page: Page, text: string) {
  const input = page.getByLabel('Message', { exact: true });
  await input.fill(text);
  await input.press('Enter');
  await message(page, text).waitFor();
  await expect.poll(() => input.inputValue()).toBe('');
}

describe('Support Chat (issue 18)', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows a visitor how to sign in, or the contact form (WCAG 2.1 AA, ${colorScheme})`, async () => {
      const page = await open(1280, colorScheme);
      await page.goto(`${env.server.url}/chat`);
      await page.getByRole('heading', { name: 'Support Chat', level: 1 }).waitFor();
      const prompt = page.getByTestId('chat-sign-in');
      expect(await prompt.getByRole('link', { name: 'Sign in to chat' }).getAttribute('href')).toBe(
        '/login?returnTo=%2Fchat',
      );
      expect(await prompt.getByRole('link', { name: 'Write to us instead' }).getAttribute('href')).toBe('/contact');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/chat-visitor-1280-${colorScheme}.png`, fullPage: true });
    });
  }

  it('a user and staff chat in real time, in two browsers, surviving a reload of either side', async () => {
    const user = await open(1280, 'light');
    const staff = await open(1280, 'dark');
    await signIn(user, env.server.url, customer);
    await signInAsRoot(staff, env.server.url);

    // No staff member watches the queue yet: the user is told the answer comes by mail.
    await user.goto(`${env.server.url}/chat`);
    await user.getByTestId('chat-new').waitFor();
    await user.getByTestId('chat-no-staff').waitFor();
    expect(await axeViolations(user)).toEqual([]);
    await user.screenshot({ path: `${SHOTS}/chat-user-new-1280-light.png`, fullPage: true });
    await send(user, 'Hello, my export stops at 402.');
    await user.getByTestId('chat-conversation').waitFor();

    await staff.goto(`${env.server.url}/chat`);
    const item = staff.getByTestId('chat-queue-item').filter({ hasText: 'Una User' });
    await item.waitFor();
    expect(await item.getByTestId('chat-unread').textContent()).toBe('1');
    await staff.screenshot({ path: `${SHOTS}/chat-queue-1280-dark.png`, fullPage: true });
    await item.click();
    await message(staff, 'Hello, my export stops at 402.').waitFor();
    // Staff read it: the user sees the mark, and the count in the queue goes.
    await user.getByTestId('chat-seen').waitFor();
    await expect.poll(() => item.getByTestId('chat-unread').textContent()).toBe('0');
    expect(await axeViolations(staff)).toEqual([]);

    // Typing shows on the other side; the answer arrives with its link made clickable, never as HTML.
    await staff.getByLabel('Message', { exact: true }).pressSequentially('Your contract');
    await user.getByRole('status').filter({ hasText: 'Support is typing…' }).waitFor();
    await staff.getByLabel('Message', { exact: true }).fill('');
    await send(staff, 'Your contract ended <b>yesterday</b>: see https://example.com/contracts');
    const answer = message(user, 'Your contract ended <b>yesterday</b>');
    await answer.waitFor();
    expect(await answer.getByRole('link', { name: 'https://example.com/contracts' }).getAttribute('href')).toBe(
      'https://example.com/contracts',
    );
    expect(await answer.locator('b').count()).toBe(0);
    await user.screenshot({ path: `${SHOTS}/chat-user-1280-light.png`, fullPage: true });
    await staff.screenshot({ path: `${SHOTS}/chat-staff-1280-dark.png`, fullPage: true });

    // The user reloads: the conversation is still there, and the live channel comes back.
    await user.reload();
    await message(user, 'Hello, my export stops at 402.').waitFor();
    await answer.waitFor();
    await send(user, 'Thanks! Renewing now.');
    await message(staff, 'Thanks! Renewing now.').waitFor();

    // Staff reload: the same conversation stays chosen (it is in the address), and still live.
    await staff.reload();
    await message(staff, 'Thanks! Renewing now.').waitFor();
    await send(staff, 'Anything else?');
    await message(user, 'Anything else?').waitFor();

    // Staff close it: the user's page says so at once and offers a new conversation.
    await staff.getByRole('button', { name: 'Close conversation' }).click();
    await user.getByTestId('chat-closed').waitFor();
    await user.getByRole('button', { name: 'Start a new conversation' }).waitFor();
    await staff.getByRole('button', { name: 'Reopen conversation' }).click();
    await user.getByLabel('Message', { exact: true }).waitFor();
  });

  for (const width of [1280, 390]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`passes WCAG 2.1 AA at ${width} px in ${colorScheme}, for the user and for staff`, async () => {
        const user = await open(width, colorScheme);
        await signIn(user, env.server.url, customer);
        await user.goto(`${env.server.url}/chat`);
        await log(user).getByTestId('chat-message').first().waitFor();
        expect(await axeViolations(user)).toEqual([]);
        expect(await sidewaysScroll(user)).toEqual([]);
        await user.screenshot({ path: `${SHOTS}/chat-user-${width}-${colorScheme}.png`, fullPage: true });

        const staff = await open(width, colorScheme);
        await signInAsRoot(staff, env.server.url);
        await staff.goto(`${env.server.url}/chat`);
        await staff.getByTestId('chat-queue-item').first().click();
        await log(staff).getByTestId('chat-message').first().waitFor();
        expect(await axeViolations(staff)).toEqual([]);
        expect(await sidewaysScroll(staff)).toEqual([]);
        await staff.screenshot({ path: `${SHOTS}/chat-staff-${width}-${colorScheme}.png`, fullPage: true });
      });
    }
  }
});
