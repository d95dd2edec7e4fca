/** super+ only: 401 when signed out, 403 below super. */
import { hasRank } from '@tessera/common/roles';
import { STEWARDSHIP_MESSAGES } from '@tessera/common/stewardship';
import type { FastifyRequest } from 'fastify';
import { Forbidden, Unauthorized } from '../../http/errors';

export async function staffOnly(request: FastifyRequest): Promise<void> {
  if (hasRank(request.user.role, 'super')) return;
  if (request.user.id === 0) throw new Unauthorized();
  throw new Forbidden(STEWARDSHIP_MESSAGES.forbidden);
}
