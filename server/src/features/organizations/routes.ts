/**
 * /v2/organizations (decision 0007): super and root manage every organization; an administrator edits their own
 * (not its e-mail domain, which decides who may join); members read their own with its users.
 */
import { canManageOrganizations } from '@tessera/common/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../db/client';
import { requireRank } from '../../http/auth';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../http/errors';
import { eachOf, idListParams } from '../../http/id-list';
import { deleted, keyed } from '../../http/keyed';
import type { Hub } from '../../socket/hub';
import { actorOf, audit } from '../audit/record';
import { actsAcrossOrganizations, mustReach, NOT_FOUND } from '../console/access';
import { toUserEntry } from '../users/entry';
import { listUsers } from '../users/repo';
import {
  countMembers,
  findByDomain,
  findOrganization,
  insertOrganization,
  listOrganizations,
  lockOrganization,
  markOrganizationDeleted,
  toOrganization,
  updateOrganization,
} from './repo';
import { idParams, organizationBody, organizationPatch } from './schemas';

export const ORGANIZATION_MESSAGES = {
  domainTaken: (domain: string) => `Another organization already uses the domain ${domain}.`,
  domainNeeded: 'Set an e-mail domain before accepting new users.',
  domainIsSystems: "Only a system administrator can change an organization's e-mail domain.",
  hasMembers: 'This organization still has users. Move or delete them first.',
} as const;

async function checkDomain(
  db: Executor,
  next: { emailDomain: string | null; acceptUsers: boolean },
  exceptId?: number,
): Promise<void> {
  if (next.acceptUsers && !next.emailDomain) {
    throw new BadRequest(ORGANIZATION_MESSAGES.domainNeeded, [
      { path: 'body.emailDomain', message: ORGANIZATION_MESSAGES.domainNeeded },
    ]);
  }
  if (next.emailDomain && (await findByDomain(db, next.emailDomain, exceptId))) {
    throw new Conflict(ORGANIZATION_MESSAGES.domainTaken(next.emailDomain));
  }
}

export function registerOrganizationRoutes(app: FastifyInstance, deps: { database: Database; hub: Hub }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, hub } = deps;

  r.get('/v2/organizations', { preHandler: requireRank('user') }, async (request) => {
    const { user } = request;
    const items = await listOrganizations(database.db, actsAcrossOrganizations(user) ? undefined : user.organizationId);
    return { organizations: keyed(items) };
  });

  // One id or a comma-separated list (spec §2); one out of reach refuses the list as it would alone.
  r.get(
    '/v2/organizations/:id',
    { preHandler: requireRank('user'), schema: { params: idListParams } },
    async (request) => {
      const found = await eachOf(request.params.id, async (id) => {
        mustReach(request.user, 'organization', id);
        const row = await findOrganization(database.db, id);
        if (!row) throw new NotFound(NOT_FOUND.organization);
        return { row, members: await listUsers(database.db, id) };
      });
      return {
        organizations: keyed(found.map(({ row }) => toOrganization(row))),
        users: keyed(found.flatMap(({ members }) => members.map((m) => toUserEntry(m.user, m.organizationName)))),
      };
    },
  );

  r.post(
    '/v2/organizations',
    { preHandler: requireRank('super'), schema: { body: organizationBody } },
    async (request) => {
      const { name, emailDomain = null, acceptUsers = false } = request.body;
      const row = await database.transaction(async (tx) => {
        await checkDomain(tx, { emailDomain, acceptUsers });
        const created = await insertOrganization(tx, { name, emailDomain, acceptUsers });
        await audit(tx, {
          action: 'organization.create',
          ...actorOf(request),
          targetType: 'organization',
          targetId: created.id,
        });
        return created;
      });
      return { organizations: keyed([toOrganization(row)]) };
    },
  );

  r.put(
    '/v2/organizations/:id',
    { preHandler: requireRank('admin'), schema: { params: idParams, body: organizationPatch } },
    async (request) => {
      const { id } = request.params;
      const { user } = request;
      mustReach(user, 'organization', id);
      const row = await database.transaction(async (tx) => {
        const current = await findOrganization(tx, id);
        if (!current) throw new NotFound(NOT_FOUND.organization);
        const patch = request.body;
        const domainChanges = patch.emailDomain !== undefined && patch.emailDomain !== current.emailDomain;
        if (domainChanges && !canManageOrganizations(user.role))
          throw new Forbidden(ORGANIZATION_MESSAGES.domainIsSystems);
        const next = {
          emailDomain: patch.emailDomain === undefined ? current.emailDomain : patch.emailDomain,
          acceptUsers: patch.acceptUsers ?? current.acceptUsers,
        };
        await checkDomain(tx, next, id);
        const updated = await updateOrganization(tx, id, { name: patch.name, ...next });
        if (!updated) throw new NotFound(NOT_FOUND.organization);
        await audit(tx, {
          action: 'organization.update',
          actorId: user.id,
          impersonatorId: user.impersonator,
          targetType: 'organization',
          targetId: id,
          ip: request.ip,
          detail: { fields: Object.keys(patch) },
        });
        return updated;
      });
      const organizations = keyed([toOrganization(row)]);
      await hub.publish(`organization:${id}`, { organizations });
      return { organizations };
    },
  );

  r.delete(
    '/v2/organizations/:id',
    { preHandler: requireRank('super'), schema: { params: idParams } },
    async (request) => {
      const { id } = request.params;
      const at = await database.transaction(async (tx) => {
        await lockOrganization(tx, id, 'update');
        if (!(await findOrganization(tx, id))) throw new NotFound(NOT_FOUND.organization);
        if ((await countMembers(tx, id)) > 0) throw new Conflict(ORGANIZATION_MESSAGES.hasMembers);
        const when = await markOrganizationDeleted(tx, id);
        if (!when) throw new NotFound(NOT_FOUND.organization);
        await audit(tx, {
          action: 'organization.delete',
          ...actorOf(request),
          targetType: 'organization',
          targetId: id,
        });
        return when;
      });
      return { organizations: deleted(id, at) };
    },
  );
}
