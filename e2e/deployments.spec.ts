/**
 * Releases and deployments in Chromium against the real server (issue 21): root cuts a release of this repository
 * (HEAD) with Markdown notes and publishes it, deploys it to a staging environment and watches each host's task
 * move to done live with its log, then deploys it to the environment that serves the console and every open page
 * (root's and a signed-out one) reloads onto the new version (spec §1). WCAG 2.1 AA light and dark, wide and narrow.
 * Screenshots go to SCREENSHOT_DIR (default /tmp/shots/deployments).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './support/browser';
import { axeViolations } from './support/page-checks';
import { usePages } from './support/pages';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const HEAD = execFileSync('git', ['-C', REPO, 'rev-parse', 'HEAD']).toString().trim();
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots/deployments';
mkdirSync(SHOTS, { recursive: true });
const hostsDir = mkdtempSync(path.join(tmpdir(), 'tessera-e2e-hosts-'));
const host = (name: string) => path.join(hostsDir, name);
const deploy = [
  process.execPath,
  path.join(REPO, 'scripts/deploy-local.mjs'),
  '{host}',
  '{version}',
  '{artifact}',
  '{sha256}',
];
const ENVIRONMENTS = [
  { name: 'staging', hosts: [host('staging-1'), host('staging-2')], command: deploy, parallelism: 1 },
  { name: 'production', hosts: [host('production-1')], command: deploy, serves: true },
];

const env = useServerAndBrowser({ env: { ENVIRONMENTS: JSON.stringify(ENVIRONMENTS) } });
const openAs = usePages(env);
const version = `4.2.0-e2e.${randomUUID().slice(0, 6)}`;
let releaseUrl = '';
let deploymentUrl = '';

/** Marks the window: a reload loses the mark. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { __mark: true }));
const marked = (page: Page) => page.evaluate(() => (window as { __mark?: boolean }).__mark === true);

async function deployTo(page: Page, environment: string) {
  await page.goto(`${releaseUrl}`);
  await page.getByRole('link', { name: 'Deploy', exact: true }).click();
  await page.getByRole('heading', { name: 'New Deployment', level: 1 }).waitFor();
  await page.getByRole('combobox', { name: 'Release' }).click();
  await page.getByRole('option', { name: version }).click();
  await page.getByRole('combobox', { name: 'Environment' }).click();
  await page.getByRole('option', { name: new RegExp(`^${environment}`) }).click();
}

describe('releases and deployments (issue 21)', () => {
  it('cuts a release from HEAD with Markdown notes and publishes it', async () => {
    const page = await openAs('root');
    await page.goto(`${env.server.url}/releases`);
    await page.getByRole('heading', { name: 'Releases', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Add Release' }).click();
    await page.getByRole('button', { name: 'Create Release' }).click();
    await page.getByText('Validation failed.').first().waitFor();
    await page.getByLabel('Version', { exact: true }).fill('one point two');
    await page.getByLabel('Version', { exact: true }).blur();
    await page.getByText('Please provide a semantic version such as 1.2.3.').first().waitFor();
    await page.getByLabel('Version', { exact: true }).fill(version);
    await page.getByLabel('Commit', { exact: true }).fill(HEAD);
    await page
      .getByLabel('Notes', { exact: true })
      .fill('## Changes\n\n- **Faster** lookups\n- <script>alert(1)</script>Safe notes');
    await page.getByRole('button', { name: 'Create Release' }).click();
    await page.getByRole('heading', { name: `Release ${version}`, level: 1 }).waitFor();
    releaseUrl = page.url();
    const notes = page.getByTestId('release-notes');
    await notes.getByRole('heading', { name: 'Changes' }).waitFor();
    expect(await notes.locator('strong').textContent()).toBe('Faster');
    expect(await notes.locator('script').count()).toBe(0);
    expect(await page.getByText(HEAD).count()).toBe(1);

    await page.getByRole('link', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('link', { name: 'Deploy', exact: true }).waitFor();
    await page.getByText('Published', { exact: true }).first().waitFor();
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    await page.goto(`${env.server.url}/releases`);
    await page.getByTestId('release-row').first().waitFor();
    expect(await page.getByTestId('release-row').first().textContent()).toContain(version);
  });

  it('deploys to staging and watches each host move to done live, logs streaming', async () => {
    const page = await openAs('root');
    await deployTo(page, 'staging');
    // Record every status each task shows, from before the deployment exists until it ends, in this one page.
    await page.evaluate(() => {
      const seen: string[] = [];
      Object.assign(window, { __seen: seen });
      new MutationObserver(() => {
        for (const el of Array.from(document.querySelectorAll('[data-testid="task"]'))) {
          const entry = `${el.getAttribute('data-key')}=${el.getAttribute('data-status')}`;
          if (!seen.includes(entry)) seen.push(entry);
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await mark(page);
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.getByRole('heading', { name: /^Deployment #\d+$/, level: 1 }).waitFor();
    deploymentUrl = page.url();
    const done = page.locator('[data-testid="task"][data-status="succeeded"]');
    await expect.poll(() => done.count(), { timeout: 60_000 }).toBe(2);
    await page.getByText('Succeeded', { exact: true }).first().waitFor();
    expect(await marked(page)).toBe(true); // no reload: it all came over the socket
    const seen = (await page.evaluate(() => (window as { __seen?: string[] }).__seen)) ?? [];
    for (const h of ['staging-1', 'staging-2']) {
      const states = seen.filter((s) => s.includes(`:${host(h)}:`)).map((s) => s.split('=')[1]);
      expect(states.at(-1)).toBe('succeeded');
      expect(states.some((s) => s === 'queued' || s === 'running')).toBe(true);
    }
    const logs = page.getByTestId('task-log');
    expect(await logs.first().textContent()).toContain(`current -> releases/${version}`);
    for (const h of ['staging-1', 'staging-2']) {
      expect(readlinkSync(path.join(host(h), 'current'))).toBe(path.join('releases', version));
    }
    await page.screenshot({ path: `${SHOTS}/deployment-1280-light.png`, fullPage: true });
  });

  it('reloads every open page when the environment serving the console is deployed', async () => {
    const watcher = await openAs(null);
    await watcher.goto(`${env.server.url}/login`);
    await watcher.getByRole('button', { name: 'Sign in' }).waitFor();
    const page = await openAs('root');
    await deployTo(page, 'production');
    // The socket has told both pages the current version by now.
    await page.waitForTimeout(500);
    await mark(watcher);
    await mark(page);
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await expect.poll(() => marked(watcher).catch(() => false), { timeout: 60_000 }).toBe(false);
    await expect.poll(() => marked(page).catch(() => false), { timeout: 60_000 }).toBe(false);
    // After its reload the page shows the finished deployment.
    await page.getByRole('heading', { name: /^Deployment #\d+$/, level: 1 }).waitFor();
    await page.locator('[data-testid="task"][data-status="succeeded"]').first().waitFor();
    expect(readlinkSync(path.join(host('production-1'), 'current'))).toBe(path.join('releases', version));
    await watcher.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme} at ${width} px: releases, release, deployments, deployment, new deployment`, async () => {
        const page = await openAs('root', { colorScheme, width });
        const pages: [string, string, string][] = [
          ['releases', `${env.server.url}/releases`, 'Releases'],
          ['release', releaseUrl, `Release ${version}`],
          ['deployments', `${env.server.url}/deployments`, 'Deployments'],
          ['deployment', deploymentUrl, 'Deployment #'],
          ['deployment-add', `${env.server.url}/deployments/add`, 'New Deployment'],
          ['release-add', `${env.server.url}/releases/add`, 'New Release'],
        ];
        for (const [name, url, heading] of pages) {
          await page.goto(url);
          await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
          if (name === 'deployment') await page.getByTestId('task').first().waitFor();
          if (name === 'releases' || name === 'deployments') await page.getByRole('row').nth(1).waitFor();
          await page.screenshot({ path: `${SHOTS}/${name}-${width}-${colorScheme}.png`, fullPage: true });
          expect(await axeViolations(page), `${name} ${colorScheme} ${width}`).toEqual([]);
        }
      });
    }
  }
});
