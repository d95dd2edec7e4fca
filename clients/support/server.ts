/**
 * The client libraries' suites (issue 17) run against a really started server: this starts one (embedded database,
 * 200 seeded people, bulk jobs run), signs root in past the agreement, makes an API key for the run (and, when asked,
 * one of an organization's administrator), and finds a seeded person's e-mail address to look up. Each language's
 * suite then runs its own test runner as a child process with TESSERA_BASE_URL, TESSERA_API_KEY and TESSERA_EMAIL
 * set, as its README's first example reads them.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { ROOT, type RunningServer, seedUser, startServer } from '../../e2e/support/server';
import { signInOverHttp } from '../../server/src/test/http-session';

export interface MadeKey {
  id: string;
  secret: string;
  /** `id + secret`: the plain Bearer form. */
  key: string;
}

export interface ClientServer {
  server: RunningServer;
  baseUrl: string;
  /** Root's console session (Cookie header), for making more keys. */
  cookie: string;
  /** A plain key made for the run. */
  apiKey: MadeKey;
  /** A seeded person's first e-mail address and id. */
  email: string;
  identityId: number;
  /**
   * With `organizationKey` asked for: a key of an administrator of the seeded "Demo" organization (a contract in
   * force), for what needs an organization (subscriptions); else undefined.
   */
  organizationKey: MadeKey | undefined;
  /** Makes another key: `POST /v2/keys` with `body` (name, legacy, rateLimit, ...), as root. */
  makeKey(body: Record<string, unknown>): Promise<MadeKey>;
  /** The environment a client's example or suite reads. */
  env(extra?: Record<string, string>): Record<string, string>;
}

const CONSOLE = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };

export interface ClientServerOptions {
  /** Make `organizationKey` too (a user made by the CLI before the start, moved into "Demo" by root). */
  organizationKey?: boolean;
}

/** Makes a key as the session `cookie`'s user: `POST /v2/keys` with `body` (name, legacy, rateLimit, ...). */
async function makeKeyAs(baseUrl: string, cookie: string, body: Record<string, unknown>): Promise<MadeKey> {
  const res = await fetch(`${baseUrl}/v2/keys`, {
    method: 'POST',
    headers: { ...CONSOLE, cookie },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST /v2/keys answered ${res.status}: ${await res.text()}`);
  const made = (await res.json()) as { keys: Record<string, { id: string; secret: string; mode?: string }> };
  const { id, secret, mode } = Object.values(made.keys)[0]!;
  // A test key is presented with its prefix (issue 31), as the console shows it.
  return { id, secret, key: `${mode === 'test' ? 'tk_test_' : ''}${id}${secret}` };
}

/** Root moves the user made before the start into the seeded "Demo" organization; then that user makes a key. */
async function demoOrganizationKey(server: RunningServer, rootCookie: string): Promise<MadeKey> {
  const baseUrl = server.url;
  const user = server.users[0]!;
  const listed = await fetch(`${baseUrl}/v2/organizations`, { headers: { ...CONSOLE, cookie: rootCookie } });
  const organizations = (await listed.json()) as { organizations: Record<string, { id: number; name: string }> };
  const demo = Object.values(organizations.organizations ?? {}).find((o) => o.name === 'Demo');
  if (!demo) throw new Error(`no Demo organization (GET /v2/organizations answered ${listed.status})`);
  const moved = await fetch(`${baseUrl}/v2/users/${user.id}`, {
    method: 'PUT',
    headers: { ...CONSOLE, cookie: rootCookie },
    body: JSON.stringify({ organizationId: demo.id }),
  });
  if (!moved.ok) throw new Error(`PUT /v2/users/${user.id} answered ${moved.status}: ${await moved.text()}`);
  const cookie = await signInOverHttp(baseUrl, user.email, user.password);
  return makeKeyAs(baseUrl, cookie, { name: 'client suite organization' });
}

/** One server for a suite file, started before its first test and stopped after its last. */
export function useClientServer(options: ClientServerOptions = {}): ClientServer {
  const shared = {} as ClientServer;
  beforeAll(async () => {
    const server = await startServer({
      // JOB_RUNNER is on by default; said here since the jobs suites need bulk jobs to run.
      env: { SEED_IDENTITIES: '200', TESSERA_VERSION: 'clients-1', JOB_RUNNER: 'true' },
      users: options.organizationKey ? [seedUser('admin', { name: 'Client Suite' })] : [],
    });
    const baseUrl = server.url;
    const cookie = await signInOverHttp(baseUrl, ROOT.email, ROOT.password);
    const makeKey = (body: Record<string, unknown>) => makeKeyAs(baseUrl, cookie, body);
    const apiKey = await makeKey({ name: 'client suite' });
    const organizationKey = options.organizationKey ? await demoOrganizationKey(server, cookie) : undefined;
    const found = await fetch(`${baseUrl}/v2/identities/byId?id=7`, {
      headers: { authorization: `Bearer ${apiKey.key}`, accept: 'application/json' },
    });
    if (!found.ok) throw new Error(`byId?id=7 answered ${found.status}`);
    const person = ((await found.json()) as { identities: { id: number; emails: { address: string }[] }[] })
      .identities[0];
    if (!person?.emails[0]) throw new Error('seeded person 7 has no e-mail address');
    Object.assign(shared, {
      server,
      baseUrl,
      cookie,
      apiKey,
      organizationKey,
      email: person.emails[0].address,
      identityId: person.id,
      makeKey,
      env: (extra: Record<string, string> = {}) => ({
        TESSERA_BASE_URL: baseUrl,
        TESSERA_API_KEY: apiKey.key,
        TESSERA_EMAIL: person.emails[0]!.address,
        ...extra,
      }),
    } satisfies ClientServer);
  }, 180_000);
  afterAll(async () => {
    await shared.server?.stop();
  });
  return shared;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (at most `timeoutMs`), with `env` added to this process's environment. */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
