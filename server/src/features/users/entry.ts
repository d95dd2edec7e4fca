import type { UserEntry } from '@tessera/common/resources';
import { isRole } from '@tessera/common/roles';
import type { UserRow } from './repo';

/** A user as the console's /v2/users lists them: never the password hash. */
export function toUserEntry(row: UserRow, organizationName: string | null): UserEntry {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    title: row.title,
    image: row.image,
    role: isRole(row.role) ? row.role : 'user',
    organizationId: row.organizationId,
    organizationName: organizationName ?? '',
    isActive: row.isActive,
    allowedRecordTypes: row.allowedRecordTypes,
    verifiedAt: row.verifiedAt ? row.verifiedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
