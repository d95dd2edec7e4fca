import { hasRank, type Role } from '@tessera/common/roles';

/** Spec §2 Password: Cancel goes to /profile for users with access, otherwise to /login. */
export function cancelPath(role: Role): string {
  return hasRank(role, 'user') ? '/profile' : '/login';
}
