/**
 * Who sees billing (decision 0064): Organization Administrators their own organization's, System Administrators
 * and above any; to an administrator another organization's billing is a missing one (404), so ids cannot be
 * probed. Organization Users have no billing (403).
 */
import { BILLING_MESSAGES, canSeeBilling, hasBilling } from '@tessera/common/billing';
import type { User } from '@tessera/common/entities';
import type { FastifyRequest } from 'fastify';
import { Forbidden, NotFound, Unauthorized } from '../../http/errors';

/** Signed in with billing (Organization Administrator or above), else 401 or 403 naming who has billing. */
export async function requireBilling(request: FastifyRequest): Promise<void> {
  if (hasBilling(request.user.role)) return;
  if (request.user.id === 0) throw new Unauthorized();
  throw new Forbidden(BILLING_MESSAGES.forbidden);
}

/** The organization whose billing is asked for, when the user may see it; else 404 as for one that does not exist. */
export function billingOrganization(user: User, organizationId: number): number {
  if (!canSeeBilling(user, organizationId)) throw new NotFound(BILLING_MESSAGES.notFound);
  return organizationId;
}
