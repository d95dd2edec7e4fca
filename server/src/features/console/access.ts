/**
 * Organization isolation for the console resources (decision 0007): super and root act across organizations;
 * everyone else only inside their own. Out of reach answers 404, the same as missing, so ids cannot be probed.
 */
import type { User } from '@tessera/common/entities';
import { hasRank } from '@tessera/common/roles';
import { NotFound } from '../../http/errors';

export function actsAcrossOrganizations(user: User): boolean {
  return hasRank(user.role, 'super');
}

export function inReach(user: User, organizationId: number | null): boolean {
  if (actsAcrossOrganizations(user)) return true;
  return user.organizationId !== null && organizationId === user.organizationId;
}

export const NOT_FOUND = {
  organization: 'No such organization.',
  user: 'No such user.',
  session: 'No such session.',
  image: 'No such image.',
} as const;

/** Throws 404 naming the kind of thing unless it exists and is in reach. */
export function mustReach(user: User, kind: keyof typeof NOT_FOUND, organizationId: number | null | undefined): void {
  if (organizationId === undefined || !inReach(user, organizationId)) throw new NotFound(NOT_FOUND[kind]);
}
