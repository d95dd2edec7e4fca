/**
 * Who manages webhooks (decision 0066): an organization's administrators its own endpoints, System Administrators
 * and Maintainers (super, root) any organization's. Anyone else signed in is refused (403); another organization's
 * endpoint, or an organization out of reach, answers 404 like a missing one, so ids cannot be probed.
 */
import type { User } from '@tessera/common/entities';
import { hasRank } from '@tessera/common/roles';
import { WEBHOOK_MESSAGES } from '@tessera/common/webhooks';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../db/client';
import { BadRequest, Forbidden, NotFound, Unauthorized } from '../../http/errors';
import { actsAcrossOrganizations, inReach } from '../console/access';
import { type EndpointRow, findEndpoint } from './repo';

/** Route guard: 401 for no session; 403 below admin, and for an administrator of no organization. */
export async function requireWebhookAdmin(request: FastifyRequest): Promise<void> {
  const { user } = request;
  if (user.id === 0) throw new Unauthorized();
  if (actsAcrossOrganizations(user)) return;
  if (!hasRank(user.role, 'admin') || user.organizationId === null) throw new Forbidden(WEBHOOK_MESSAGES.forbidden);
}

/** The organization a list is of: super+ any one named (or all: null), an administrator only their own. */
export function listScope(user: User, requested: number | undefined): number | null {
  if (actsAcrossOrganizations(user)) return requested ?? null;
  if (requested !== undefined && requested !== user.organizationId) {
    throw new NotFound(WEBHOOK_MESSAGES.organizationNotFound);
  }
  return user.organizationId;
}

/**
 * The organization a new endpoint belongs to, locked until the transaction ends (so two creations cannot both pass
 * the limit): super+ the one named or their own; an administrator their own.
 */
export async function creationTarget(tx: Executor, user: User, requested: number | undefined): Promise<number> {
  const organizationId = requested ?? user.organizationId;
  if (!actsAcrossOrganizations(user) && requested !== undefined && requested !== user.organizationId) {
    throw new NotFound(WEBHOOK_MESSAGES.organizationNotFound);
  }
  if (organizationId === null) {
    const message = WEBHOOK_MESSAGES.organizationRequired;
    throw new BadRequest(message, [{ path: 'body.organizationId', message }]);
  }
  const found = (await tx.execute(
    sql`select id from organizations where id = ${organizationId} and deleted_at is null for update`,
  )) as unknown as { rows: unknown[] };
  if (found.rows.length === 0) throw new NotFound(WEBHOOK_MESSAGES.organizationNotFound);
  return organizationId;
}

/** The endpoint, if it exists and the user may manage it; otherwise 404. */
export async function reachableEndpoint(db: Executor, user: User, id: number, forUpdate = false): Promise<EndpointRow> {
  const row = await findEndpoint(db, id, forUpdate);
  if (!row || !inReach(user, row.organizationId)) throw new NotFound(WEBHOOK_MESSAGES.notFound);
  return row;
}
