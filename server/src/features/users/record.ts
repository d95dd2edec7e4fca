import type { User } from '@tessera/common/entities';
import { hasRank, isRole, type Role } from '@tessera/common/roles';
import type { users } from '../../db/schema';

type UserRow = typeof users.$inferSelect;

export interface Standing {
  /** The session can only set a password (reset or set link). */
  passwordOnly: boolean;
  /** The user accepted the newest agreement. */
  acceptedTerms: boolean;
}

/**
 * The role a session acts with (spec §4, §6): a password-only session is a resetter; a user who has not accepted
 * the newest agreement is a signer; otherwise the stored role.
 */
export function effectiveRole(stored: string, standing: Standing): Role {
  const role = isRole(stored) ? stored : 'anonymous';
  if (role === 'anonymous') return role;
  if (standing.passwordOnly) return 'resetter';
  if (hasRank(role, 'user') && !standing.acceptedTerms) return 'signer';
  return role;
}

/** The public user record of spec §3: what replies, pushes and the readable cookie carry. */
export function toUserRecord(
  row: UserRow,
  organizationName: string | null,
  expires: number,
  standing: Standing,
  impersonator?: number | null,
): User {
  const record: User = {
    id: row.id,
    email: row.email,
    name: row.name,
    role: effectiveRole(row.role, standing),
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
