import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@tessera/common/validation';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../config';
import { freePort, runCli as runSource, storageEnv } from '../test/process';
import { scratchBuild } from '../test/scratch-build';

let env: Record<string, string>;
/**
 * The tests below start the CLI once per case, one after another: the compiled one that the `tessera` command runs
 * (scripts/tessera.mjs, decision 0054), built once for this file, since starting the source on tsx took up to 16 s
 * a case under load. One case runs the source as `npm run tessera` does, so both stay tested. Their allowance is
 * for the starts, not a speed check.
 */
const SERIAL_STARTS_MS = 300_000;

const build = scratchBuild();
const runCli = (args: string[], vars: Record<string, string>) =>
  runSource(args, vars, path.join(build.folder(), 'cli.js'));

beforeAll(() => {
  env = storageEnv();
});

describe('tessera CLI', () => {
  it('migrate applies migrations', async () => {
    const { code, output } = await runCli(['migrate'], env);
    expect(code).toBe(0);
    expect(output).toMatch(/Migrations applied \((pglite|postgres)\)\./);
  });

  it('user create makes a user, and refuses a duplicate', async () => {
    const email = `admin-${randomUUID()}@tessera.test`;
    const args = ['user', 'create', '--email', email, '--role', 'admin', '--password', 'Adm1n-passw0rd'];
    const first = await runCli(args, env);
    expect(first.code).toBe(0);
    expect(first.output).toMatch(new RegExp(`Created admin user \\d+ <${email}>\\.`));
    const again = await runCli(args, env);
    expect(again.code).toBe(2);
    expect(again.output).toContain(`There is already a user account for ${email}.`);
  });

  it('user create refuses a weak password, a bad e-mail and an unknown role', async () => {
    const email = `u-${randomUUID()}@tessera.test`;
    const weak = await runCli(['user', 'create', '--email', email, '--password', 'short'], env);
    expect(weak.code).toBe(2);
    expect(weak.output).toContain(MESSAGES.password);
    const badEmail = await runCli(['user', 'create', '--email', 'not-an-email', '--password', 'Adm1n-passw0rd'], env);
    expect(badEmail.code).toBe(2);
    expect(badEmail.output).toContain(MESSAGES.email);
    const role = await runCli(['user', 'create', '--email', email, '--role', 'emperor'], env);
    expect(role.code).toBe(2);
    expect(role.output).toContain('Unknown role "emperor".');
  });

  it('user create refuses an organization that does not exist, and creates nobody', async () => {
    const email = `u-${randomUUID()}@tessera.test`;
    const args = ['user', 'create', '--email', email, '--password', 'Adm1n-passw0rd', '--organization', 'Nowhere Inc'];
    const res = await runCli(args, env);
    expect(res.code).toBe(2);
    expect(res.output).toContain('No organization is named "Nowhere Inc".');
    const retry = await runCli(['user', 'create', '--email', email, '--password', 'Adm1n-passw0rd'], env);
    expect(retry.code).toBe(0);
  });

  it('explains itself', async () => {
    const help = await runSource(['help'], env); // the TypeScript source, as `npm run tessera` runs it
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('user create --email E --role R');
    const unknown = await runCli(['explode'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`tessera: Unknown command "explode". Try 'tessera --help'.\n`);
    const missing = await runCli(['user', 'create'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`tessera user create: user create needs --email. Try 'tessera user create --help'.\n`);
  });
});

/** A database URL nothing answers at, with a password that must never be shown. */
const SECRET = 'n0t-Sh0wn-pw';

describe('tessera CLI: help and version', () => {
  /** A command's help must come before anything is checked or opened: the database here is unreachable. */
  let unreachable: Record<string, string>;
  beforeAll(async () => {
    unreachable = { DATABASE_URL: `postgres://tessera:${SECRET}@127.0.0.1:${await freePort()}/tessera` };
  });

  it(
    'shows the usage on stdout, with every command and exit code, for --help, -h and help',
    async () => {
      for (const args of [['--help'], ['-h'], ['help'], []]) {
        const res = await runCli(args, unreachable);
        expect(res.code, args.join(' ')).toBe(0);
        expect(res.stderr).toBe('');
        expect(res.stdout).toMatch(/^Usage: tessera /);
        for (const command of ['serve', 'migrate', 'user create', 'generate', 'import']) {
          expect(res.stdout).toContain(`\n  ${command}`);
        }
        for (const code of ['0  done', '1  failed', '2  usage', '3  import']) expect(res.stdout).toContain(code);
      }
    },
    SERIAL_STARTS_MS,
  );

  it(
    "shows each command's help for --help or -h anywhere among its arguments, without opening the database",
    async () => {
      const cases: [string[], string][] = [
        [['generate', '--help'], 'Usage: tessera generate --identities N --out DIR'],
        [['generate', '--identities', 'lots', '-h'], 'Usage: tessera generate'],
        [['import', '-h'], 'Usage: tessera import FILE'],
        [['import', 'missing.jsonl', '--max-rejects', '2', '--help'], '--max-rejects N|P%'],
        [['user', 'create', '--help'], 'Usage: tessera user create --email E'],
        [['user', '-h'], 'Usage: tessera user create'],
        [['migrate', '--help'], 'Usage: tessera migrate'],
        [['serve', '-h'], 'Usage: tessera serve'],
        [['help', 'import'], 'Usage: tessera import FILE'],
      ];
      for (const [args, usage] of cases) {
        const res = await runCli(args, unreachable);
        expect(res.code, args.join(' ')).toBe(0);
        expect(res.stderr, args.join(' ')).toBe('');
        expect(res.stdout, args.join(' ')).toContain(usage);
        expect(res.stdout, args.join(' ')).toContain('Exit codes:');
      }
    },
    SERIAL_STARTS_MS,
  );

  it('prints the version the server reports with --version and -V', async () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const plain = await runCli(['--version'], {});
    expect(plain.code).toBe(0);
    // The package's version, plus a digest of the built console when there is one (version.ts).
    expect(plain.stdout).toMatch(new RegExp(`^${pkg.version.replace(/\./g, '\\.')}(\\+[0-9a-f]{10})?\\n$`));
    const override = await runCli(['-V'], { TESSERA_VERSION: '7.1.2-test' });
    expect(override.stdout).toBe('7.1.2-test\n');
  });

  it(
    'answers a wrong command line with one line naming the problem and the help to read, and exit code 2',
    async () => {
      const cases: [string[], string][] = [
        [['--colour'], `tessera: Unknown option '--colour'. Try 'tessera --help'.`],
        [
          ['generate', '--colour', 'red'],
          `tessera generate: Unknown option '--colour'. Try 'tessera generate --help'.`,
        ],
        [['migrate', 'now'], `tessera migrate: Unexpected argument 'now'.`],
        [['serve', '--port', '80'], `tessera serve: Unknown option '--port'.`],
        [['user'], `tessera user: user needs a command: create or reset-2fa. Try 'tessera user --help'.`],
        [['help', 'explode'], `tessera: No help for "explode": no such command. Try 'tessera --help'.`],
      ];
      for (const [args, message] of cases) {
        const res = await runCli(args, unreachable);
        expect(res.code, args.join(' ')).toBe(2);
        expect(res.stdout).toBe('');
        expect(res.stderr.split('\n')).toHaveLength(2); // one line and its end
        expect(res.stderr).toContain(message);
        expect(res.stderr).toMatch(/Try 'tessera[a-z ]*--help'\.\n$/);
      }
    },
    SERIAL_STARTS_MS,
  );
});

describe('tessera CLI: failures', () => {
  const oneLine = (text: string) => {
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd().split('\n')).toHaveLength(1);
  };

  it('says on one line, without the password or a stack, that the database cannot be reached (exit 1)', async () => {
    const port = await freePort();
    const refused = await runCli(['migrate'], {
      DATABASE_URL: `postgres://tessera:${SECRET}@127.0.0.1:${port}/tessera?password=${SECRET}`,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `tessera: cannot reach the database at postgres://tessera@127.0.0.1:${port}/tessera?password=[redacted] (connection refused)\n`,
    );
    const badHost = await runCli(['user', 'create', '--email', 'a@b.example'], {
      DATABASE_URL: `postgres://tessera:${SECRET}@no-such-host.invalid:5432/tessera`,
    });
    expect(badHost.code).toBe(1);
    oneLine(badHost.stderr);
    expect(badHost.stderr).toMatch(
      /^tessera: cannot reach the database at postgres:\/\/tessera@no-such-host\.invalid:5432\/tessera \((host not found|host name lookup failed)\)/,
    );
    expect(refused.output + badHost.output).not.toContain(SECRET);
  });

  it.runIf(inject('databaseUrl'))('says so when the server turns the credentials away', async () => {
    const url = new URL(inject('databaseUrl')!);
    url.username = `nobody_${randomUUID().slice(0, 8)}`;
    url.password = SECRET;
    const res = await runCli(['migrate'], { DATABASE_URL: url.toString() });
    expect(res.code).toBe(1);
    oneLine(res.stderr);
    expect(res.stderr).toContain(`tessera: cannot reach the database at postgres://${url.username}@`);
    expect(res.stderr).toMatch(
      /\((role "nobody_\w+" does not exist|password authentication failed for user "nobody_\w+")\)\n$/,
    );
    expect(res.output).not.toContain(SECRET);
  });

  it('tells an unexpected error on one line, with its stack only under --debug or DEBUG (exit 1)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tessera-cli-')), 'a-file');
    writeFileSync(file, '');
    const args = ['generate', '--identities', '5', '--out', path.join(file, 'graph')];
    const plain = await runCli(args, {});
    expect(plain.code).toBe(1);
    expect(plain.stderr).toBe(
      `tessera generate: ENOTDIR: not a directory, mkdir '${path.join(file, 'graph')}' (run again with --debug for the stack)\n`,
    );
    for (const [extra, env] of [
      [['--debug'], {}],
      [[], { DEBUG: '1' }],
    ] as const) {
      const res = await runCli([...extra, ...args], env);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/^tessera generate: ENOTDIR: not a directory, mkdir .*\n/);
      expect(res.stderr).toMatch(/\n\s+at .*generate/); // the stack
    }
  });
});
