/**
 * `tessera user create`: a verified user, made from the command line (the first root user of a deployment).
 * `tessera user reset-2fa`: turns off someone's two-factor sign-in (decision 0063), the way back in for a root who
 * lost their device when no other root can reset it in the console.
 */
import { parseArgs } from 'node:util';
import { isRole, ROLES } from '@tessera/common/roles';
import { and, eq, isNull } from 'drizzle-orm';
import { loadConfig } from '../config';
import { organizations } from '../db/schema';
import { resetTwoFactorByEmail } from '../features/two-factor/operator';
import { createUser } from '../features/users/service';
import { openStorage } from '../runtime';
import { EXIT_CODES_HELP } from './exit-codes';
import { UsageError, wantsHelp } from './usage-error';

const ROLE_NAMES = ROLES.filter((r) => r !== 'anonymous').join(', ');

export const USER_SYNOPSIS = 'user create --email E --role R [--password P] [--name N] [--organization NAME]';

export const USER_RESET_SYNOPSIS = 'user reset-2fa --email E';

export const USER_HELP = `Usage: tessera user create --email E [--role R] [--password P] [--name N] [--organization NAME]
       tessera ${USER_RESET_SYNOPSIS}

Creates a verified user.

Options:
  --email E            the user's e-mail address (required)
  --role R             ${ROLE_NAMES} (default user)
  --password P         the password; or set TESSERA_PASSWORD, which keeps it off the command line and out of
                       the shell's history; with neither, the user has no password (a reset link sets one)
  --name N             the display name
  --organization NAME  an existing organization, by name (a new embedded database has "Demo", with a contract,
                       so its users can call the API)
  -h, --help           show this help

reset-2fa turns off the user's two-factor sign-in (their secret and recovery codes are deleted, the reset is
audited); they then sign in with their password alone, and set it up again from their profile.

${EXIT_CODES_HELP}`;

async function userResetTwoFactor(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' } } });
  if (!values.email) throw new UsageError('user reset-2fa needs --email.');
  const database = await openStorage(loadConfig());
  try {
    const outcome = await resetTwoFactorByEmail(database, values.email);
    if (outcome === 'no-user') throw new UsageError(`There is no user account for ${values.email}.`);
    if (outcome === 'not-on') throw new UsageError(`${values.email} does not have two-factor sign-in on.`);
    console.log(`Two-factor sign-in turned off for ${values.email}.`);
  } finally {
    await database.close();
  }
}

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

export async function userCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === '-h' || ((sub === 'create' || sub === 'reset-2fa') && wantsHelp(rest))) {
    console.log(USER_HELP);
    return;
  }
  if (sub === undefined) throw new UsageError('user needs a command: create or reset-2fa.');
  if (sub === 'reset-2fa') return userResetTwoFactor(rest);
  if (sub !== 'create') throw new UsageError(`Unknown user command "${sub}".`);
  return userCreate(rest);
}
