/** Who may do what with SSH access, and the audit entry of each change. */

import { hasRank } from '@tessera/common/roles';
import { SSH_MESSAGES } from '@tessera/common/ssh';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../db/client';
import { Forbidden, Unauthorized } from '../../http/errors';
import { type AuditAction, actorOf, audit } from '../audit/record';

function atLeast(rank: 'super' | 'root', message: string) {
  return async (request: FastifyRequest) => {
    if (hasRank(request.user.role, rank)) return;
    if (request.user.id === 0) throw new Unauthorized();
    throw new Forbidden(message);
  };
}

/** Keys and certificates: staff (super+), each for their own keys; root for anyone's. */
export const staffOnly = atLeast('super', SSH_MESSAGES.staffOnly);
/** Host groups, grants and the CA: root. */
export const rootOnly = atLeast('root', SSH_MESSAGES.rootOnly);

export const isRoot = (request: FastifyRequest) => hasRank(request.user.role, 'root');

export function auditSsh(
  db: Executor,
  request: FastifyRequest,
  action: AuditAction,
  target: { type: string; id: number },
  detail?: Record<string, unknown>,
): Promise<void> {
  return audit(db, {
    action,
    ...actorOf(request),
    targetType: target.type,
    targetId: target.id,
    detail,
  });
}
