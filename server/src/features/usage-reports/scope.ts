/**
 * Whose usage a caller may read (issue 16): a user their own calls, an administrator their organization's, super
 * and root anyone's; an API key its own calls, an administrator's key its organization's (issue 31). A filter outside that answers 403 naming it; an id that does not exist is outside too, so the
 * answer tells nothing about other organizations.
 */
import type { User } from '@tessera/common/entities';
import { hasRank } from '@tessera/common/roles';
import { USAGE_MESSAGES } from '@tessera/common/usage';
import type { Database } from '../../db/client';
import { Forbidden } from '../../http/errors';
import { actsAcrossOrganizations } from '../console/access';

/** The who-filters a report applies, after the caller's scope is added. */
export interface Who {
  userId?: number;
  organizationId?: number;
  keyId?: string;
}

const outside = (field: keyof typeof USAGE_MESSAGES.outOfScope) => new Forbidden(USAGE_MESSAGES.outOfScope[field]);

async function ownerOf(database: Database, keyId: string) {
  const [row] = await database.query<{ userId: number; organizationId: number | null }>(
    'select user_id as "userId", organization_id as "organizationId" from api_keys where id = $1',
    [keyId],
  );
  return row;
}

async function organizationOf(database: Database, userId: number) {
  const [row] = await database.query<{ organizationId: number | null }>(
    'select organization_id as "organizationId" from users where id = $1',
    [userId],
  );
  return row;
}

export async function scopeOf(database: Database, user: User, asked: Who): Promise<Who> {
  if (actsAcrossOrganizations(user)) return asked;
  const own = user.organizationId;
  if (asked.organizationId !== undefined && asked.organizationId !== own) throw outside('organizationId');
  if (hasRank(user.role, 'admin') && own !== null) {
    if (asked.userId !== undefined && (await organizationOf(database, asked.userId))?.organizationId !== own) {
      throw outside('userId');
    }
    if (asked.keyId !== undefined && (await ownerOf(database, asked.keyId))?.organizationId !== own) {
      throw outside('keyId');
    }
    return { ...asked, organizationId: own };
  }
  if (asked.userId !== undefined && asked.userId !== user.id) throw outside('userId');
  if (asked.keyId !== undefined && (await ownerOf(database, asked.keyId))?.userId !== user.id) throw outside('keyId');
  return { ...asked, userId: user.id };
}

/**
 * A call made with an API key: an administrator's key (or a staff member's) reads what its user may; any other key
 * reads its own calls only, not its user's other keys' or sessions'.
 */
export async function keyScopeOf(
  database: Database,
  key: { userId: number; organizationId: number | null; role: User['role']; keyId: string | null },
  asked: Who,
): Promise<Who> {
  if (hasRank(key.role, 'admin')) {
    const user = { id: key.userId, role: key.role, organizationId: key.organizationId } as User;
    return scopeOf(database, user, asked);
  }
  // A key's call always names its key; without one there is nothing it may read.
  if (key.keyId === null) throw outside('keyId');
  if (asked.organizationId !== undefined && asked.organizationId !== key.organizationId)
    throw outside('organizationId');
  if (asked.userId !== undefined && asked.userId !== key.userId) throw outside('userId');
  if (asked.keyId !== undefined && asked.keyId !== key.keyId) throw outside('keyId');
  return { ...asked, keyId: key.keyId };
}
