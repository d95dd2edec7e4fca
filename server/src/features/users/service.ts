import type { Role } from '@tessera/common/roles';
import { isRole } from '@tessera/common/roles';
import { canonicalEmail, isEmail, isStrongPassword, MESSAGES } from '@tessera/common/validation';
import { ConfigError } from '../../config';
import type { Database } from '../../db/client';
import { BadRequest, Conflict } from '../../http/errors';
import { hashPassword } from './passwords';
import { countUsers, findUserByEmail, insertUser, type UserRow } from './repo';

export interface CreateUserInput {
  email: string;
  role: Role;
  password?: string | null;
  name?: string;
  organizationId?: number | null;
}

/** Creates a verified, active user (operators' path: CLI and ROOT_EMAIL). */
export async function createUser(database: Database, input: CreateUserInput): Promise<UserRow> {
  const email = canonicalEmail(input.email);
  if (!isEmail(email)) throw new BadRequest(MESSAGES.email, [{ path: 'email', message: MESSAGES.email }]);
  if (input.password && !isStrongPassword(input.password)) {
    throw new BadRequest(MESSAGES.password, [{ path: 'password', message: MESSAGES.password }]);
  }
  if (!isRole(input.role) || input.role === 'anonymous') {
    throw new BadRequest(`Unknown role "${input.role}".`, [{ path: 'role', message: 'Unknown role.' }]);
  }
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return database.transaction(async (tx) => {
    if (await findUserByEmail(tx, email)) throw new Conflict(`There is already a user account for ${email}.`);
    return insertUser(tx, {
      email,
      role: input.role,
      name: input.name ?? '',
      organizationId: input.organizationId ?? null,
      passwordHash,
      verifiedAt: new Date(),
    });
  });
}

export type RootUserOutcome = 'not asked' | 'created' | 'ignored: the database already has users';

/**
 * On an empty database, creates the first root user from ROOT_EMAIL and ROOT_PASSWORD. A bad value is a
 * configuration error naming the variable.
 */
export async function ensureRootUser(
  database: Database,
  email: string | null,
  password: string | null,
): Promise<RootUserOutcome> {
  if (!email || !password) return 'not asked';
  if ((await countUsers(database.db)) > 0) return 'ignored: the database already has users';
  try {
    await createUser(database, { email, password, role: 'root', name: 'Root' });
  } catch (err) {
    if (!(err instanceof BadRequest)) throw err;
    const variable = err.fields?.[0]?.path === 'password' ? 'ROOT_PASSWORD' : 'ROOT_EMAIL';
    throw new ConfigError(`${variable}: ${err.message}`);
  }
  return 'created';
}
