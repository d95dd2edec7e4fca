/**
 * Client Libraries (/client, issue 17) in Chromium against the real server: for each language the page's install
 * command, first example and run commands are carried out exactly as shown (only the key and address filled in)
 * in a fresh folder, and the example prints the identity the key finds; the JavaScript command follows the package
 * manager chosen; each README linked carries the page's install command with this server's address; WCAG 2.1 AA in
 * both themes, wide and narrow.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../clients/support/server';
import { callApi, signInAsRoot, useServerAndBrowser } from './support/browser';
import { axeViolations, sidewaysScroll } from './support/page-checks';
import { type PageOptions, usePages } from './support/pages';

const env = useServerAndBrowser({ env: { SEED_IDENTITIES: '200' } });
const SHOTS = '/tmp/shots-client';
mkdirSync(SHOTS, { recursive: true });
const openAs = usePages(env);

let key = '';
let email = '';
let identityId = 0;

const openPage = (options: PageOptions = {}) => openAs(null, options);

beforeAll(async () => {
  const page = await openPage();
  await signInAsRoot(page, env.server.url);
  const made = await callApi(page, 'POST', '/v2/keys', { name: 'client page e2e' });
  expect(made.status).toBe(201);
  const item = Object.values((made.body as { keys: Record<string, { id: string; secret: string }> }).keys)[0]!;
  key = `${item.id}${item.secret}`;
  const found = await fetch(`${env.server.url}/v2/identities/byId?id=7`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const person = ((await found.json()) as { identities: { id: number; emails: { address: string }[] }[] })
    .identities[0]!;
  identityId = person.id;
  email = person.emails[0]!.address;
});

interface Shown {
  install: string;
  example: string;
  run: string;
}

async function shown(page: Page, language: string): Promise<Shown> {
  await page.getByRole('tab', { name: language, exact: true }).click();
  await page.getByTestId('client-install').waitFor();
  const text = (id: string) =>
    page
      .getByTestId(id)
      .textContent()
      .then((t) => t ?? '');
  return {
    install: await text('client-install'),
    example: await text('client-example'),
    run: await text('client-run'),
  };
}

/** Runs the page's commands in a fresh folder as a reader would, the key and address put in; returns the output. */
async function carryOut(s: Shown, exampleFile: string, extraEnv: Record<string, string> = {}): Promise<unknown> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-client-page-'));
  const installed = await run('bash', ['-c', s.install], { cwd: dir, env: extraEnv, timeoutMs: 180_000 });
  expect(installed.code, `${s.install}\n${installed.stdout}\n${installed.stderr}`).toBe(0);
  writeFileSync(path.join(dir, exampleFile), s.example);
  // The page names a test key and the sandbox's sample; this spec's own live key and person are put in their place.
  const script = s.run
    .replace(/TESSERA_API_KEY=\S+/, `TESSERA_API_KEY=${key}`)
    .replace(/TESSERA_EMAIL=\S+/, `TESSERA_EMAIL=${email}`);
  const ran = await run('bash', ['-c', script], { cwd: dir, env: extraEnv, timeoutMs: 180_000 });
  expect(ran.code, `${script}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
  return JSON.parse(ran.stdout);
}

const ids = (identities: unknown) => (identities as { id: number }[]).map((i) => i.id);

describe('client libraries page (issue 17)', () => {
  it('installs and runs the JavaScript client as shown, with the chosen package manager', async () => {
    const page = await openPage();
    await page.goto(`${env.server.url}/client`);
    const s = await shown(page, 'JavaScript');
    expect(s.install).toMatch(new RegExp(`^npm install ${env.server.url}/clients/tessera-client-[\\d.]+\\.tgz$`));
    await page.getByRole('button', { name: 'pnpm' }).click();
    expect(await page.getByTestId('client-install').textContent()).toMatch(/^pnpm add http/);
    await page.getByRole('button', { name: 'npm', exact: true }).click();
    expect(ids(await carryOut(s, 'first-call.mjs'))).toContain(identityId);
  });

  it('installs and runs the Python client as shown, in a fresh virtual environment', async () => {
    const page = await openPage();
    await page.goto(`${env.server.url}/client`);
    const s = await shown(page, 'Python');
    expect(s.install).toMatch(/^pip install http.+\.whl$/);
    const venv = mkdtempSync(path.join(tmpdir(), 'tessera-client-venv-'));
    const made = await run('python3', ['-m', 'venv', venv]);
    expect(made.code, made.stderr).toBe(0);
    // The reader's shell has the environment active: its pip and python3 come first.
    const active = { PATH: `${venv}/bin:${process.env.PATH}`, PIP_DISABLE_PIP_VERSION_CHECK: '1' };
    expect(ids(await carryOut(s, 'first_call.py', active))).toContain(identityId);
  });

  it('downloads and runs the Java client as shown', async () => {
    const page = await openPage();
    await page.goto(`${env.server.url}/client`);
    const s = await shown(page, 'Java');
    expect(s.install).toMatch(/^curl -O http.+\.jar$/);
    expect(ids(await carryOut(s, 'FirstCall.java'))).toContain(identityId);
  });

  it('links each README and keeps the language chosen in settings', async () => {
    const page = await openPage();
    await page.goto(`${env.server.url}/client`);
    const python = await shown(page, 'Python');
    const href = await page.getByRole('link', { name: 'Read its README' }).getAttribute('href');
    expect(href).toBe('/clients/python-README.md');
    const readme = await fetch(`${env.server.url}${href}`);
    expect(readme.status).toBe(200);
    const text = await readme.text();
    expect(text).toMatch(/TESSERA_API_KEY/);
    // The README says what the page says, with this server's address (issue 31).
    expect(text).toContain(`\n${python.install}\n`);
    expect(text).not.toContain('tessera.example.com');
    await page.reload();
    await page.getByTestId('client-install').waitFor();
    expect(await page.getByRole('tab', { name: 'Python', exact: true }).getAttribute('aria-selected')).toBe('true');
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`meets WCAG 2.1 AA in ${colorScheme}, ${width} px wide`, async () => {
        const page = await openPage({ colorScheme, width });
        await page.goto(`${env.server.url}/client`);
        await page.getByTestId('client-install').waitFor();
        await page.screenshot({ path: `${SHOTS}/client-${colorScheme}-${width}.png`, fullPage: true });
        expect(await axeViolations(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toEqual([]);
      });
    }
  }
});
