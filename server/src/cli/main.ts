/** The `tessera` command: `npm run tessera -- <command>`. */
import { parseArgs } from 'node:util';
import { isRole, ROLES } from '@tessera/common/roles';
import { and, eq, isNull } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { organizations } from '../db/schema';
import { createUser } from '../features/users/service';
import { AppError } from '../http/errors';
import { serve } from '../main';
import { openStorage } from '../runtime';
import { GENERATE_USAGE, generateCommand } from './generate';
import { IMPORT_USAGE, importCommand } from './import';
import { UsageError } from './usage-error';

const USAGE = `Usage: npm run tessera -- <command>

Commands:
  serve                                  start the server (what npm start runs after building the console)
  migrate                                apply database migrations and exit
  user create --email E --role R [--password P] [--name N] [--organization NAME]
                                         create a verified user; roles: ${ROLES.filter((r) => r !== 'anonymous').join(', ')}
                                         --organization: an existing organization by name (a new embedded
                                         database has "Demo", with a contract, so its users can call the API)
                                         the password may come from TESSERA_PASSWORD instead of the command line
  ${GENERATE_USAGE}
  ${IMPORT_USAGE}

Configuration comes from the environment (see README.md): DATABASE_URL, DATA_DIR, ...`;

async function userCreate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      role: { type: 'string', default: 'user' },
      password: { type: 'string' },
      name: { type: 'string', default: '' },
      organization: { type: 'string' },
    },
  });
  if (!values.email) throw new UsageError('user create needs --email.');
  if (!isRole(values.role) || values.role === 'anonymous') throw new UsageError(`Unknown role "${values.role}".`);
  const password = values.password ?? process.env.TESSERA_PASSWORD ?? null;
  const database = await openStorage(loadConfig());
  try {
    let organizationId: number | null = null;
    if (values.organization !== undefined) {
      const [org] = await database.db
        .select({ id: organizations.id })
        .from(organizations)
        .where(and(eq(organizations.name, values.organization), isNull(organizations.deletedAt)))
        .limit(1);
      if (!org) throw new UsageError(`No organization is named "${values.organization}".`);
      organizationId = org.id;
    }
    const user = await createUser(database, {
      email: values.email,
      role: values.role,
      password,
      name: values.name,
      organizationId,
    });
    const where = values.organization === undefined ? '' : ` in ${values.organization}`;
    console.log(
      `Created ${user.role} user ${user.id} <${user.email}>${where}${password ? '' : ' without a password'}.`,
    );
  } finally {
    await database.close();
  }
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve();
    case 'migrate': {
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
      return;
    }
    case 'user':
      if (rest[0] === 'create') return userCreate(rest.slice(1));
      throw new UsageError(`Unknown user command "${rest[0] ?? ''}".`);
    case 'generate':
      return generateCommand(rest);
    case 'import':
      return importCommand(rest);
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return;
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

run(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(`${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (
    err instanceof AppError ||
    err instanceof ConfigError ||
    (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')
  ) {
    console.error((err as Error).message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
