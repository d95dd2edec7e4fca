/**
 * An integrator's first calls (issue 31) in Chromium against a server started as `npm start` starts one (a seeded
 * embedded graph): the new key dialog's curl line finds someone, for a live key and for a test key (the sandbox);
 * the Client Libraries page's commands, with a test key it makes, find someone; the playground's sample fills in
 * an input that finds someone. The dialog and the pages pass WCAG 2.1 AA in both themes.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './support/browser';
import { axeViolations } from './support/page-checks';
import { usePages } from './support/pages';
import { seedUser } from './support/server';

const developer = seedUser('user', { name: 'Dev' });
const env = useServerAndBrowser({ env: { SEED_IDENTITIES: '300' }, users: [developer] });
const openAs = usePages(env);
const SHOTS = '/tmp/shots-first-call';

/** Runs a curl line as the dialog shows it (from outside the browser, as a developer's shell does). */
async function runCurl(line: string): Promise<{ status: number; identities: unknown[] }> {
  const m = /^curl -H "Authorization: (Bearer [^"]+)" "([^"]+)"$/.exec(line);
  expect(m, line).not.toBeNull();
  const res = await fetch(m![2]!, { headers: { authorization: m![1]! } });
  const body = (await res.json()) as { identities?: unknown[] };
  return { status: res.status, identities: body.identities ?? [] };
}

async function makeKey(page: Page, name: string, mode: 'Live' | 'Test'): Promise<{ key: string; curl: string }> {
  await page.goto(`${env.server.url}/keys/add`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('radio', { name: new RegExp(`^${mode}`) }).check();
  await page.getByRole('button', { name: 'Create Key' }).click();
  const dialog = page.getByRole('dialog', { name: `New key ${name}` });
  await dialog.waitFor();
  // The curl line waits for the samples (GET /v2/samples): no placeholder once they are in.
  await expect
    .poll(async () => (await dialog.getByTestId('new-key-curl').textContent()) ?? '')
    .not.toContain('someone@example.com');
  return {
    key: (await dialog.getByTestId('new-key').textContent()) ?? '',
    curl: (await dialog.getByTestId('new-key-curl').textContent()) ?? '',
  };
}

describe("an integrator's first calls (issue 31)", () => {
  it("the new key dialog's curl line finds someone, live and test", async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await openAs('root', { colorScheme: scheme });
      const live = await makeKey(page, `Live ${scheme}`, 'Live');
      expect(live.key).toMatch(/^[A-Za-z0-9]{48}$/);
      const liveCall = await runCurl(live.curl);
      expect(liveCall.status).toBe(200);
      expect(liveCall.identities.length).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'I have copied it' }).click();

      const test = await makeKey(page, `Test ${scheme}`, 'Test');
      expect(test.key).toMatch(/^tk_test_[A-Za-z0-9]{48}$/);
      const dialog = page.getByRole('dialog', { name: `New key Test ${scheme}` });
      await dialog.getByText('answers from the sandbox').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/test-key-dialog-${scheme}.png` });
      const testCall = await runCurl(test.curl);
      expect(testCall.status).toBe(200);
      expect(testCall.identities.length, test.curl).toBeGreaterThan(0);
      await dialog.getByRole('button', { name: 'I have copied it' }).click();
      // The key's page marks it as a test key, with the prefix it is presented with.
      await page.getByText('Test: answers from the sandbox, free').waitFor();
      await page.getByText(`tk_test_${test.key.slice(8, 24)}`).waitFor();
      expect(await axeViolations(page)).toEqual([]);
    }
  });

  it("the Client Libraries page's run commands, with the test key it makes, find someone", async () => {
    const page = await openAs('root', { colorScheme: 'dark' });
    await page.goto(`${env.server.url}/client`);
    const run = page.getByTestId('client-run');
    await run.waitFor();
    await page.getByRole('button', { name: 'Make a test key for this example' }).click();
    await page.getByTestId('client-key-made').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/client-dark.png`, fullPage: true });
    const text = (await run.textContent()) ?? '';
    const key = /TESSERA_API_KEY=(\S+)/.exec(text)?.[1] ?? '';
    const email = /TESSERA_EMAIL=(\S+)/.exec(text)?.[1] ?? '';
    expect(key).toMatch(/^tk_test_[A-Za-z0-9]{48}$/);
    expect(email).not.toBe('someone@example.com');
    // What the example does with them: one byEmail call.
    const res = await fetch(`${env.server.url}/v2/identities/byEmail?email=${encodeURIComponent(email)}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { identities: unknown[] }).identities.length).toBeGreaterThan(0);
  });

  it("the playground's sample finds someone", async () => {
    const page = await openAs('root');
    await page.goto(`${env.server.url}/playground`);
    const hint = page.getByTestId('reply-hint');
    await hint.getByRole('button', { name: 'Use a sample' }).click();
    // Auto-fetch sends it: the CSV reply has a row with an identity in it.
    expect(await page.locator('#param-email').inputValue()).toMatch(/@/);
    await page.getByTestId('csv-row').first().waitFor();
    expect(await page.getByTestId('csv-row').count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("puts the id of one of the developer's own keys in the playground's code, the secret left to paste", async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await openAs(developer, { colorScheme: scheme });
      const made = await page.evaluate(async (name) => {
        const res = await fetch('/v2/keys', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
          body: JSON.stringify({ name }),
        });
        return ((await res.json()) as { keys: Record<string, { id: string }> }).keys;
      }, `Mine ${scheme}`);
      const id = Object.keys(made)[0]!;
      await page.goto(`${env.server.url}/playground`);
      const code = page.getByTestId('sample-code');
      await code.waitFor();
      expect(await code.textContent()).toContain('YOUR_API_KEY');
      await page.getByRole('combobox', { name: 'Key' }).click();
      const option = page.getByRole('option', { name: new RegExp(`^Mine ${scheme}`) });
      await option.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await option.click();
      expect(await code.textContent()).toContain(`${id}YOUR_SECRET`);
      expect(await code.textContent()).not.toContain('YOUR_API_KEY');
      await page.screenshot({ path: `${SHOTS}/playground-key-${scheme}.png`, fullPage: true });
    }
  });
});
