/**
 * The Python client's suite (issue 17): its unittest tests run against a really started server (200 seeded
 * people, bulk jobs run) with keys made for the run (one of an organization, for subscriptions), the README's first
 * example runs as written from a package pip-installed into a fresh virtual environment, its bulk job and subscription
 * examples from the source tree, and the 429 retry is shown end to end with a real wait for Retry-After.
 *
 * The three Python runs start together (after the keys are made) and each test awaits its own: the real 429 wait
 * (60 to 120 s, a one-minute sliding window) overlaps the rest.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BreakingRelay,
  type RecordingProxy,
  startBreakingRelay,
  startRecordingProxy,
} from '../../support/proxies';
import { type RunResult, run, useClientServer } from '../../support/server';

const PKG = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = process.env.PYTHON ?? 'python3';
const suiteStarted = Date.now();

const env = useClientServer({ organizationKey: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'tessera-python-client-'));
const VENV_PYTHON = path.join(tmp, 'venv', 'bin', 'python');

let unit: Promise<RunResult>;
let waiting: Promise<RunResult>;
let installed: Promise<RunResult>;
let childEnv: Record<string, string>;
// tests/test_network.py's proxy (it lists what it carried) and relay (it breaks a connection when armed), issue 31.
let proxy: RecordingProxy;
let relay: BreakingRelay;

/** Prints a run's output when it failed, so the failure shows in the vitest report. */
function explain(what: string, result: RunResult): string {
  return `${what} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

/** A fresh virtual environment with the package pip-installed: offline, since its build backend needs nothing. */
async function install(): Promise<RunResult> {
  const venv = await run(PYTHON, ['-m', 'venv', path.join(tmp, 'venv')], { cwd: tmp, timeoutMs: 120_000 });
  if (venv.code !== 0) return venv;
  return run(
    VENV_PYTHON,
    ['-m', 'pip', 'install', '--no-index', '--disable-pip-version-check', '--no-cache-dir', PKG],
    { cwd: tmp, env: { PYTHONDONTWRITEBYTECODE: '1', PIP_NO_INPUT: '1' }, timeoutMs: 120_000 },
  );
}

beforeAll(async () => {
  const legacy = await env.makeKey({ name: 'python client legacy', legacy: true });
  const limited = await env.makeKey({ name: 'python client limited', rateLimit: 1 });
  const wait = await env.makeKey({ name: 'python client wait', rateLimit: 1 });
  const usage = await env.makeKey({ name: 'python client usage' });
  proxy = await startRecordingProxy();
  relay = await startBreakingRelay(env.baseUrl);
  childEnv = env.env({
    TESSERA_PROXY_URL: proxy.url,
    TESSERA_RELAY_URL: relay.url,
    TESSERA_RELAY_CONTROL: relay.controlUrl,
    TESSERA_IDENTITY_ID: String(env.identityId),
    TESSERA_LEGACY_KEY: legacy.key,
    TESSERA_LIMITED_KEY: limited.key,
    TESSERA_WAIT_KEY: wait.key,
    TESSERA_USAGE_KEY: usage.key,
    TESSERA_ORG_KEY: env.organizationKey!.key,
    TESSERA_REQUIRE_LIVE: '1',
    PYTHONDONTWRITEBYTECODE: '1',
  });
  unit = run(PYTHON, ['-m', 'unittest', 'discover', '-s', 'tests', '-v'], { cwd: PKG, env: childEnv });
  waiting = run(PYTHON, ['tests/wait_rate_limit.py', '-v'], { cwd: PKG, env: childEnv });
  installed = install();
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await relay?.close();
  rmSync(tmp, { recursive: true, force: true });
  console.log(`clients/python suite: ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s`);
});

describe('python client', () => {
  it('passes its unittest suite against the server, skipping nothing', async () => {
    const result = await unit;
    expect(result.code, explain('python3 -m unittest discover -s tests -v', result)).toBe(0);
    // unittest -v reports on stderr: every test ran (the live ones fail rather than skip without a server).
    expect(result.stderr).not.toMatch(/\bskipped\b/);
    const ran = Number(/Ran (\d+) tests?/.exec(result.stderr)?.[1] ?? 0);
    expect(ran).toBeGreaterThanOrEqual(80);
    const modules = ['test_live', 'test_network', 'test_transport', 'test_offline', 'test_packaging', 'test_jobs'];
    for (const module of [...modules, 'test_subscriptions']) {
      expect(result.stderr).toContain(`(${module}.`);
    }
  });

  it('installs with pip into a fresh virtual environment, offline, and imports', async () => {
    const result = await installed;
    expect(result.code, explain('pip install ./clients/python', result)).toBe(0);
    const version = /__version__ = "([^"]+)"/.exec(
      readFileSync(path.join(PKG, 'src/tessera/_version.py'), 'utf8'),
    )?.[1];
    const imported = await run(
      VENV_PYTHON,
      ['-c', 'import json, tessera; print(json.dumps([tessera.__version__, tessera.__file__]))'],
      { cwd: tmp, env: { PYTHONDONTWRITEBYTECODE: '1' } },
    );
    expect(imported.code, explain('import tessera', imported)).toBe(0);
    const [got, file] = JSON.parse(imported.stdout) as [string, string];
    expect(got).toBe(version);
    expect(file.startsWith(path.join(tmp, 'venv'))).toBe(true);
    // pip built in place: nothing may be left behind in the working tree.
    for (const leftover of ['build', 'src/tessera_client.egg-info', 'backend/__pycache__']) {
      expect(existsSync(path.join(PKG, leftover)), leftover).toBe(false);
    }
  });

  it("runs the README's first example as written and prints the person's identity", async () => {
    const readme = readFileSync(path.join(PKG, 'README.md'), 'utf8');
    const example = readFileSync(path.join(PKG, 'examples/first_call.py'), 'utf8');
    expect(/```python\n([\s\S]*?)```/.exec(readme)?.[1]).toBe(example);
    const installedOk = (await installed).code === 0;
    // From the installed package (as a user runs it), else from the source tree.
    const result = installedOk
      ? await run(VENV_PYTHON, [path.join(PKG, 'examples/first_call.py')], { cwd: tmp, env: childEnv })
      : await run(PYTHON, ['examples/first_call.py'], { cwd: PKG, env: { ...childEnv, PYTHONPATH: 'src' } });
    expect(result.code, explain('examples/first_call.py', result)).toBe(0);
    const identities = JSON.parse(result.stdout) as { id: number; emails: { address: string }[] }[];
    expect(identities.map((i) => i.id)).toContain(env.identityId);
    expect(identities[0]?.emails.map((e) => e.address)).toContain(env.email);
  });

  it("runs the README's bulk job and subscription examples as written (examples/bulk_job.py, subscriptions.py)", async () => {
    // tests/test_jobs.py checks they are the README's; here they run from the source tree, in a folder of their own,
    // once the unittest run is over (its tests list the same key's jobs and the organization's subscriptions).
    await unit;
    const dir = mkdtempSync(path.join(tmp, 'examples-'));
    writeFileSync(path.join(dir, 'customers.csv'), `ref,email\nc-1,${env.email}\nc-2,nobody@example.com\n`);
    const source = { ...childEnv, PYTHONPATH: path.join(PKG, 'src') };
    const bulk = await run(PYTHON, [path.join(PKG, 'examples/bulk_job.py')], { cwd: dir, env: source });
    expect(bulk.code, explain('examples/bulk_job.py', bulk)).toBe(0);
    expect(bulk.stdout).toMatch(/completed: 2 of 2 rows\n1 of 2 rows matched; \d+ bytes in customers-result\.csv\n$/);
    expect(readFileSync(path.join(dir, 'customers-result.csv'), 'utf8')).toContain(`c-1,${env.email},`);

    const organization = { ...source, TESSERA_API_KEY: env.organizationKey!.key };
    const subscribed = await run(PYTHON, [path.join(PKG, 'examples/subscriptions.py')], {
      cwd: dir,
      env: organization,
    });
    expect(subscribed.code, explain('examples/subscriptions.py', subscribed)).toBe(0);
    const made = /^subscription (\d+) follows identity (\d+)\n/.exec(subscribed.stdout);
    expect(made?.[2]).toBe(String(env.identityId));
    expect(subscribed.stdout).toContain(`\n${made?.[1]} ${env.identityId} email\n`);
  });

  it('retries a 429 after its Retry-After and is served (a real wait)', async () => {
    const result = await waiting;
    expect(result.code, explain('tests/wait_rate_limit.py', result)).toBe(0);
    expect(result.stderr).not.toMatch(/\bskipped\b/);
    const line = /429 Retry-After (\d+) s; served after ([\d.]+) s/.exec(result.stdout);
    expect(line, result.stdout).not.toBeNull();
    expect(Number(line![2])).toBeGreaterThanOrEqual(Number(line![1]));
  });
});
