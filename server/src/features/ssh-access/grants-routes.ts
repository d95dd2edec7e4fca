/**
 * /v2/ssh/groups and /v2/ssh/grants (root): host groups, each with a token shown once, and grants of a key to a
 * group as a login until an expiry. Deleting a group or revoking a grant takes effect at the hosts' next login.
 */
import { SSH_MESSAGES } from '@tessera/common/ssh';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Conflict, NotFound } from '../../http/errors';
import { deleted, keyed } from '../../http/keyed';
import { auditSsh, rootOnly } from './access';
import { newHostToken, tokenDigest } from './host-tokens';
import type { SshRouteDeps } from './keys-routes';
import {
  deleteGroup,
  findGrant,
  findGroup,
  findKey,
  grantView,
  groupByName,
  groupView,
  insertGrant,
  insertGroup,
  listGrants,
  listGroups,
  revokeGrant,
} from './repo';
import { grantBody, groupBody, idParams } from './schemas';

export function registerSshGrantRoutes(app: FastifyInstance, deps: Pick<SshRouteDeps, 'database'>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;

  r.get('/v2/ssh/groups', { preHandler: rootOnly }, async () => ({
    sshHostGroups: keyed((await listGroups(database.db)).map(groupView)),
  }));

  r.post('/v2/ssh/groups', { preHandler: rootOnly, schema: { body: groupBody } }, async (request, reply) => {
    const { name } = request.body;
    const token = newHostToken();
    const group = await database.transaction(async (tx) => {
      if (await groupByName(tx, name)) throw new Conflict(SSH_MESSAGES.groupTaken(name));
      const row = await insertGroup(tx, {
        name,
        tokenSha256: tokenDigest(token),
        tokenLastFour: token.slice(-4),
        createdBy: request.user.id,
      });
      await auditSsh(tx, request, 'ssh.group.create', { type: 'ssh-host-group', id: row.id }, { name });
      return groupView(row);
    });
    reply.code(201);
    // The token is in this reply only.
    return { sshHostGroups: keyed([{ ...group, token }]) };
  });

  r.delete('/v2/ssh/groups/:id', { preHandler: rootOnly, schema: { params: idParams } }, async (request) => {
    const at = new Date();
    const revoked = await database.transaction(async (tx) => {
      const group = await findGroup(tx, request.params.id);
      if (!group) throw new NotFound(SSH_MESSAGES.groupNotFound);
      const grants = await deleteGroup(tx, group.id, request.user.id, at);
      await auditSsh(
        tx,
        request,
        'ssh.group.delete',
        { type: 'ssh-host-group', id: group.id },
        {
          name: group.name,
          revokedGrants: grants,
        },
      );
      return grants;
    });
    const sshGrants = Object.fromEntries(revoked.map((id) => [id, { id, revokedAt: at.toISOString() }]));
    return { sshHostGroups: deleted(request.params.id, at), sshGrants };
  });

  r.get('/v2/ssh/grants', { preHandler: rootOnly }, async () => ({
    sshGrants: keyed((await listGrants(database.db)).map(grantView)),
  }));

  r.post('/v2/ssh/grants', { preHandler: rootOnly, schema: { body: grantBody } }, async (request, reply) => {
    const { keyId, groupId, principal, expiresAt } = request.body;
    const grant = await database.transaction(async (tx) => {
      if (!(await findKey(tx, keyId))) throw new NotFound(SSH_MESSAGES.keyNotFound);
      const group = await findGroup(tx, groupId);
      if (!group) throw new NotFound(SSH_MESSAGES.groupNotFound);
      const row = await insertGrant(tx, { keyId, groupId, principal, expiresAt, createdBy: request.user.id });
      await auditSsh(
        tx,
        request,
        'ssh.grant.create',
        { type: 'ssh-grant', id: row.id },
        {
          keyId,
          group: group.name,
          principal,
          expiresAt: expiresAt.toISOString(),
        },
      );
      return grantView(row);
    });
    reply.code(201);
    return { sshGrants: keyed([grant]) };
  });

  r.delete('/v2/ssh/grants/:id', { preHandler: rootOnly, schema: { params: idParams } }, async (request) => {
    const grant = await database.transaction(async (tx) => {
      const row = await findGrant(tx, request.params.id, true);
      if (!row) throw new NotFound(SSH_MESSAGES.grantNotFound);
      if (row.revokedAt) return grantView(row); // revoked before: nothing changes, nothing audited
      const revoked = await revokeGrant(tx, row.id, request.user.id, new Date());
      await auditSsh(
        tx,
        request,
        'ssh.grant.revoke',
        { type: 'ssh-grant', id: row.id },
        {
          keyId: row.keyId,
          principal: row.principal,
        },
      );
      return grantView(revoked);
    });
    return { sshGrants: keyed([grant]) };
  });
}
