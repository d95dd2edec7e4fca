import type { User } from '@tessera/common/entities';
import { isRole } from '@tessera/common/roles';
import type { users } from '../../db/schema';

type UserRow = typeof users.$inferSelect;

/** The public user record of spec §3: what replies, pushes and the readable cookie carry. */
export function toUserRecord(
  row: UserRow,
  organizationName: string | null,
  expires: number,
  impersonator?: number | null,
): User {
  const record: User = {
    id: row.id,
    email: row.email,
    name: row.name,
    role: isRole(row.role) ? row.role : 'anonymous',
    organizationId: row.organizationId,
    organizationName: organizationName ?? '',
    isActive: row.isActive,
    title: row.title,
    image: row.image,
    allowedRecordTypes: row.allowedRecordTypes,
    expires,
  };
  if (impersonator) record.impersonator = impersonator;
  return record;
}
