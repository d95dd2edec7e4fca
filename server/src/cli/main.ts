/**
 * The `tessera` command. From a checkout: `npm run tessera -- <command>` (TypeScript on tsx); once built,
 * server/dist/cli.js, which the package's `tessera` bin (scripts/tessera.mjs) runs with no dev package installed.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, REPO_ROOT } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { serverVersion } from '../version';
import { EXIT, EXIT_CODES_HELP } from './exit-codes';
import { describeFailure } from './failure';
import { GENERATE_HELP, GENERATE_SYNOPSIS, generateCommand } from './generate';
import { IMPORT_HELP, IMPORT_SYNOPSIS, importCommand } from './import';
import { UsageError, wantsHelp } from './usage-error';
import { USER_HELP, USER_RESET_SYNOPSIS, USER_SYNOPSIS, userCommand } from './user';

const USAGE = `Usage: tessera [--debug] <command> [options]      (from a checkout: npm run tessera -- <command> ...)

Commands:
  serve              start the server (what npm start runs after building)
  migrate            apply database migrations and exit
  ${USER_SYNOPSIS}
                     create a verified user
  ${USER_RESET_SYNOPSIS}
                     turn off a user's two-factor sign-in (a lost device)
  ${GENERATE_SYNOPSIS}
                     write a generated identity graph and its labelled queries
  ${IMPORT_SYNOPSIS}
                     load identity records from JSONL or CSV files
  help [COMMAND]     show this help, or a command's

Options:
  -h, --help         show this help; \`tessera <command> --help\` shows a command's
  -V, --version      print the version, as the server reports it
  --debug            print the stack of an unexpected error (as does setting DEBUG)

Configuration comes from the environment (see README.md): DATABASE_URL, DATA_DIR, ...

${EXIT_CODES_HELP}`;

const SERVE_HELP = `Usage: tessera serve

Starts the server as npm start does (without building the console first), configured by the environment
(README.md: PORT, DATABASE_URL, DATA_DIR, ...). SIGTERM or SIGINT drains requests and exits 0.

${EXIT_CODES_HELP}`;

const MIGRATE_HELP = `Usage: tessera migrate

Applies the database migrations not yet applied (the server also does as it starts), then exits.

${EXIT_CODES_HELP}`;

const HELP: Record<string, string> = {
  serve: SERVE_HELP,
  migrate: MIGRATE_HELP,
  user: USER_HELP,
  generate: GENERATE_HELP,
  import: IMPORT_HELP,
};

/** The version the server reports (version.ts): the package's, plus a digest of the built console. */
function version(): string {
  try {
    const config = loadConfig();
    return serverVersion(config.staticDir, config.versionOverride);
  } catch {
    // A configuration the server would refuse still has a version.
    return serverVersion(path.join(REPO_ROOT, 'web/dist'), process.env.TESSERA_VERSION?.trim() || null);
  }
}

/** A command that takes no arguments: one given is an error, not silently ignored. */
function noArguments(args: string[]): void {
  parseArgs({ args, options: {} });
}

async function migrateCommand(args: string[]): Promise<void> {
  noArguments(args);
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolMode: config.databasePoolMode,
  });
  try {
    await migrate(database);
    console.log(`Migrations applied (${database.engine}).`);
  } finally {
    await database.close();
  }
}

async function serveCommand(args: string[]): Promise<void> {
  noArguments(args);
  // Loaded only to serve. The compiled CLI imports the compiled server beside it (server/dist/main.js) rather than
  // holding a copy: main.ts starts serving when its module is the script run, which a bundle holding it would be.
  const { serve } = await import('../main');
  await serve();
}

/** Runs one command; its exit code, when it is not 0. `command` is filled in as soon as it is known. */
async function run(argv: string[], context: { command: string }): Promise<number | undefined> {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    const topic = first === 'help' ? rest[0] : undefined;
    if (topic !== undefined && !HELP[topic]) throw new UsageError(`No help for "${topic}": no such command.`);
    console.log(topic ? HELP[topic] : USAGE);
    return;
  }
  if (first === '--version' || first === '-V') {
    console.log(version());
    return;
  }
  if (first.startsWith('-')) throw new UsageError(`Unknown option '${first}'.`);
  if (!HELP[first]) throw new UsageError(`Unknown command "${first}".`);
  context.command = first === 'user' && (rest[0] === 'create' || rest[0] === 'reset-2fa') ? `user ${rest[0]}` : first;
  if (first !== 'user' && wantsHelp(rest)) {
    console.log(HELP[first]);
    return;
  }
  switch (first) {
    case 'serve':
      await serveCommand(rest);
      return;
    case 'migrate':
      await migrateCommand(rest);
      return;
    case 'user':
      await userCommand(rest);
      return;
    case 'generate':
      await generateCommand(rest);
      return;
    case 'import':
      return importCommand(rest);
  }
}

/** DEBUG as a switch: set and not "0" or "false". */
function debugFromEnv(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false'].includes(value.trim().toLowerCase());
}

const args = process.argv.slice(2);
const end = args.indexOf('--');
const debugAt = args.indexOf('--debug');
const debug = (debugAt !== -1 && (end === -1 || debugAt < end)) || debugFromEnv(process.env.DEBUG);
const context = { command: '' };
run(
  args.filter((a, i) => a !== '--debug' || (end !== -1 && i > end)),
  context,
).then(
  (code) => {
    process.exitCode = code ?? EXIT.ok;
  },
  (err: unknown) => {
    const failure = describeFailure(err, {
      command: context.command,
      debug,
      databaseUrl: process.env.DATABASE_URL?.trim() || null,
    });
    process.stderr.write(failure.text);
    process.exit(failure.code);
  },
);
