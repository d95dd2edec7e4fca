/**
 * SSH access in Chromium against the real server (issue 20 item 3): root pastes a public key and sees the
 * fingerprint ssh-keygen prints, creates a host group and copies its token (shown once), grants the key to the
 * group as a login (the hosts' endpoint then lists it, with the token), gets a certificate, reads the CA key and
 * sshd_config lines, revokes the grant (the endpoint no longer lists it) and deletes the key; WCAG 2.1 AA in
 * light and dark. Screenshots go to SCREENSHOT_DIR (default /tmp/shots/ssh).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './support/browser';
import { axeViolations } from './support/page-checks';
import { usePages } from './support/pages';

const env = useServerAndBrowser();
const openAs = usePages(env);
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots/ssh';
mkdirSync(SHOTS, { recursive: true });
const dir = mkdtempSync(path.join(tmpdir(), 'tessera-e2e-ssh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keygen(name: string): { publicKey: string; fingerprint: string } {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
  const fingerprint = execFileSync('ssh-keygen', ['-lf', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1]!;
  return { publicKey: readFileSync(`${file}.pub`, 'utf8'), fingerprint };
}

async function hostAsk(group: string, token: string): Promise<string> {
  const res = await fetch(`${env.server.url}/v2/ssh/authorized_keys?group=${group}&user=postgres`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return res.text();
}

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

async function addKey(page: Page, name: string) {
  const key = keygen(name);
  await page.getByLabel('Public key', { exact: true }).fill(key.publicKey);
  await page.getByRole('button', { name: 'Add key' }).click();
  await page.getByTestId('ssh-key-row').filter({ hasText: name }).waitFor();
  return key;
}

async function createGroup(page: Page, name: string): Promise<string> {
  await page.getByLabel('Group name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create group' }).click();
  const dialog = page.getByRole('dialog', { name: `Token for ${name}` });
  await dialog.waitFor();
  const token = (await dialog.getByTestId('group-token').textContent()) ?? '';
  expect(token).toMatch(/^tsh_[A-Za-z0-9_-]{43}$/);
  return token;
}

describe('SSH access (issue 20)', () => {
  it('registers a key, makes a group, grants, gets a certificate, revokes and deletes', async () => {
    const page = await openAs('root');
    await page.goto(`${env.server.url}/ssh`);
    await page.getByRole('heading', { name: 'SSH', level: 1 }).waitFor();

    const key = await addKey(page, 'ada-laptop');
    const row = page.getByTestId('ssh-key-row').filter({ hasText: 'ada-laptop' });
    await row.getByText(key.fingerprint, { exact: true }).waitFor();
    // A refused key says why, and nothing is added.
    await page.getByLabel('Public key', { exact: true }).fill('ssh-dss AAAAB3NzaC1kc3MAAACBAP');
    await page.getByRole('button', { name: 'Add key' }).click();
    await page
      .getByTestId('alert-stack')
      .getByText(/could not be read/)
      .waitFor();

    const token = await createGroup(page, 'prod-db');
    await page.screenshot({ path: `${SHOTS}/ssh-token-1280-light.png` });
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page
      .getByTestId('ssh-group-row')
      .filter({ hasText: 'prod-db' })
      .getByText(`…${token.slice(-4)}`)
      .waitFor();
    expect(await page.evaluate((t) => document.body.innerHTML.includes(t), token)).toBe(false);

    await choose(page, 'Key', /ada-laptop/);
    await choose(page, 'Host group', 'prod-db');
    await page.getByLabel('Login', { exact: true }).fill('postgres');
    await page.getByRole('button', { name: 'Grant access' }).click();
    const grant = page.getByTestId('ssh-grant-row').filter({ hasText: 'postgres' });
    await grant.getByText('Live').waitFor();
    expect(await hostAsk('prod-db', token)).toContain(key.publicKey.split(' ').slice(0, 2).join(' '));

    await choose(page, 'Certificate key', /ada-laptop/);
    await choose(page, 'Grant', /postgres on prod-db/);
    await choose(page, 'Valid for', '2 hours');
    await page.getByRole('button', { name: 'Get certificate' }).click();
    const certificate = (await page.getByTestId('ssh-certificate').textContent()) ?? '';
    expect(certificate).toMatch(/^ssh-ed25519-cert-v01@openssh\.com AAAA/);
    await page.getByRole('link', { name: /Download tessera-\d+-cert\.pub/ }).waitFor();

    expect(await page.getByTestId('ssh-ca-key').textContent()).toMatch(/^ssh-ed25519 AAAA/);
    expect(await page.getByTestId('ssh-sshd-config').textContent()).toContain('TrustedUserCAKeys');
    expect(await page.getByTestId('ssh-script').textContent()).toContain(`${env.server.url}/v2/ssh/authorized_keys`);
    await page.screenshot({ path: `${SHOTS}/ssh-1280-light.png`, fullPage: true });

    await grant.getByRole('button', { name: /Revoke grant/ }).click();
    await grant.getByText('Revoked').waitFor();
    expect(await hostAsk('prod-db', token)).toBe('');

    await row.getByRole('button', { name: 'Delete key ada-laptop' }).click();
    await row.waitFor({ state: 'detached' });
  });

  describe.each(['light', 'dark'] as const)('WCAG 2.1 AA (%s)', (theme) => {
    it('the page with data, the token dialog, and at 390 px', async () => {
      const page = await openAs('root', { colorScheme: theme });
      await page.goto(`${env.server.url}/ssh`);
      await page.getByRole('heading', { name: 'SSH', level: 1 }).waitFor();
      await addKey(page, `axe-${theme}`);
      await createGroup(page, `axe-${theme}`);
      expect(await axeViolations(page), 'token dialog').toEqual([]);
      await page.getByRole('button', { name: 'I have copied it' }).click();
      await choose(page, 'Key', new RegExp(`axe-${theme}`));
      await choose(page, 'Host group', `axe-${theme}`);
      await page.getByLabel('Login', { exact: true }).fill('deploy');
      await page.getByRole('button', { name: 'Grant access' }).click();
      await page.getByTestId('ssh-grant-row').filter({ hasText: 'deploy' }).first().waitFor();
      expect(await axeViolations(page), 'page').toEqual([]);
      await page.screenshot({ path: `${SHOTS}/ssh-1280-${theme}.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 900 });
      expect(await axeViolations(page), 'narrow').toEqual([]);
      await page.screenshot({ path: `${SHOTS}/ssh-390-${theme}.png`, fullPage: true });
    });
  });
});
