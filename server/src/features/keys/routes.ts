/**
 * /v2/keys (issue 5): a user makes and manages their own API keys; an organization's administrators manage its
 * members' keys; super and root every key. Out of reach answers 404, like missing. The secret is in the reply to
 * POST /v2/keys and to a rotation, and nowhere else ever.
 */
import type { ApiKey, User } from '@tessera/common/entities';
import { STALE_MESSAGES } from '@tessera/common/etag';
import { KEY_MESSAGES } from '@tessera/common/keys';
import { isRecordType } from '@tessera/common/record-types';
import { hasRank } from '@tessera/common/roles';
import { organizationChannel, selfChannel } from '@tessera/common/socket';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../db/client';
import { users } from '../../db/schema';
import { requireRank } from '../../http/auth';
import { BadRequest, NotFound } from '../../http/errors';
import { deleted, keyed } from '../../http/keyed';
import type { Hub } from '../../socket/hub';
import { type AuditAction, actorOf, audit } from '../audit/record';
import { checkIfMatch, digestTag, itemTag, tagged } from '../conditional/preconditions';
import { actsAcrossOrganizations } from '../console/access';
import { findKey, insertKey, type KeyRow, listKeys, toApiKey, toApiKeys, updateKey } from './repo';
import { keyBody, keyParams, keyPatch, rotateBody } from './schemas';
import { newKeyId, newSecret, type Sealer, sha256Hex } from './secrets';
import type { KeyVerifier } from './verify';

export interface KeyRouteDeps {
  database: Database;
  hub: Hub;
  sealer: Sealer;
  verifier: KeyVerifier;
}

/** Whether `user` may see and change `key`. */
export function canManageKey(user: User, key: Pick<KeyRow, 'userId' | 'organizationId'>): boolean {
  if (key.userId === user.id || actsAcrossOrganizations(user)) return true;
  return hasRank(user.role, 'admin') && user.organizationId !== null && key.organizationId === user.organizationId;
}

/** A key may receive only record types its user may (an empty list of the user's means all). */
function checkRecordTypes(user: User, types: string[] | undefined): void {
  if (!types || user.allowedRecordTypes.length === 0) return;
  const own = user.allowedRecordTypes.filter(isRecordType) as string[];
  const outside = types.find((t) => !own.includes(t));
  if (outside) {
    const message = KEY_MESSAGES.recordTypeNotYours(outside);
    throw new BadRequest(message, [{ path: 'body.allowedRecordTypes', message }]);
  }
}

async function sealed(sealer: Sealer, secret: string) {
  return { secretSha256: sha256Hex(secret), secretLastFour: secret.slice(-4), secretSealed: await sealer.seal(secret) };
}

/** A key's ETag: its version, and its usage and grace (which change without an edit) after the dot. */
const keyTag = (item: ApiKey) =>
  itemTag(item.updatedAt, [item.lastUsedAt, item.callsThisMonth, item.previousValidUntil]);

export function registerKeyRoutes(app: FastifyInstance, deps: KeyRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, hub, sealer, verifier } = deps;

  const auditKey = (db: Executor, request: FastifyRequest, action: AuditAction, id: string, detail?: object) =>
    audit(db, {
      action,
      ...actorOf(request),
      targetType: 'key',
      targetId: id,
      detail: detail as Record<string, unknown> | undefined,
    });

  /**
   * Tells the consoles that may see the key (canManageKey): its owner's, and on its organization's channel only
   * administrators and super+, never plain members (who get 404 for it by REST).
   */
  async function publish(row: KeyRow, item: ApiKey | Record<string, unknown>) {
    const keys = { [row.id]: item };
    await hub.publish(selfChannel(row.userId), { keys });
    if (row.organizationId !== null) {
      await hub.publish(organizationChannel(row.organizationId), { keys }, { minRank: 'admin' });
    }
  }

  async function reachable(db: Executor, user: User, id: string, forUpdate = false): Promise<KeyRow> {
    const row = await findKey(db, id, forUpdate);
    if (!row || !canManageKey(user, row)) throw new NotFound(KEY_MESSAGES.notFound);
    return row;
  }

  r.get('/v2/keys', { preHandler: requireRank('user') }, async (request, reply) => {
    const { user } = request;
    const scope = actsAcrossOrganizations(user)
      ? {}
      : hasRank(user.role, 'admin') && user.organizationId !== null
        ? { organizationId: user.organizationId }
        : { userId: user.id };
    const body = { keys: keyed(await toApiKeys(database.db, await listKeys(database.db, scope))) };
    return tagged(request, reply, digestTag(body), body);
  });

  r.get('/v2/keys/:id', { preHandler: requireRank('user'), schema: { params: keyParams } }, async (request, reply) => {
    const [item] = await toApiKeys(database.db, [await reachable(database.db, request.user, request.params.id)]);
    return tagged(request, reply, keyTag(item!), { keys: keyed([item!]) });
  });

  r.post('/v2/keys', { preHandler: requireRank('user'), schema: { body: keyBody } }, async (request, reply) => {
    const { user } = request;
    checkRecordTypes(user, request.body.allowedRecordTypes);
    const secret = newSecret();
    const secretFields = await sealed(sealer, secret);
    const row = await database.transaction(async (tx) => {
      const created = await insertKey(tx, {
        ...request.body,
        id: newKeyId(),
        userId: user.id,
        organizationId: user.organizationId,
        ...secretFields,
      });
      await auditKey(tx, request, 'key.create', created.id);
      return created;
    });
    await verifier.changed(row.id); // a process that was told this id is unknown forgets that
    await publish(row, toApiKey(row));
    reply.code(201);
    return { keys: keyed([{ ...toApiKey(row), secret }]) };
  });

  r.put(
    '/v2/keys/:id',
    { preHandler: requireRank('user'), schema: { params: keyParams, body: keyPatch } },
    async (request, reply) => {
      const row = await database.transaction(async (tx) => {
        const current = await reachable(tx, request.user, request.params.id, true);
        checkIfMatch(request, current.updatedAt, STALE_MESSAGES.key);
        // The key's own user bounds its record types, whoever edits it.
        if (request.body.allowedRecordTypes) {
          const [owner] = await tx
            .select({ types: users.allowedRecordTypes })
            .from(users)
            .where(eq(users.id, current.userId));
          checkRecordTypes(
            { ...request.user, allowedRecordTypes: owner?.types ?? [] },
            request.body.allowedRecordTypes,
          );
        }
        const updated = await updateKey(tx, current.id, request.body);
        await auditKey(tx, request, 'key.update', current.id, { fields: Object.keys(request.body) });
        return updated;
      });
      await verifier.changed(row.id);
      const [item] = await toApiKeys(database.db, [row]);
      await publish(row, item!);
      reply.header('etag', keyTag(item!));
      return { keys: keyed([item!]) };
    },
  );

  r.post(
    '/v2/keys/:id/rotate',
    { preHandler: requireRank('user'), schema: { params: keyParams, body: rotateBody } },
    async (request, reply) => {
      const { graceSeconds } = request.body;
      const secret = newSecret();
      const secretFields = await sealed(sealer, secret);
      const row = await database.transaction(async (tx) => {
        const current = await reachable(tx, request.user, request.params.id, true);
        checkIfMatch(request, current.updatedAt, STALE_MESSAGES.key);
        const grace = graceSeconds > 0;
        const updated = await updateKey(tx, current.id, {
          ...secretFields,
          previousSha256: grace ? current.secretSha256 : null,
          previousSealed: grace ? current.secretSealed : null,
          previousValidUntil: grace ? new Date(Date.now() + graceSeconds * 1000) : null,
        });
        await auditKey(tx, request, 'key.rotate', current.id, { graceSeconds });
        return updated;
      });
      await verifier.changed(row.id);
      const [item] = await toApiKeys(database.db, [row]);
      await publish(row, item!);
      reply.header('etag', keyTag(item!));
      return { keys: keyed([{ ...item!, secret }]) };
    },
  );

  r.delete('/v2/keys/:id', { preHandler: requireRank('user'), schema: { params: keyParams } }, async (request) => {
    const row = await database.transaction(async (tx) => {
      const current = await reachable(tx, request.user, request.params.id, true);
      checkIfMatch(request, current.updatedAt, STALE_MESSAGES.key);
      const revoked = await updateKey(tx, current.id, { deletedAt: new Date() });
      await auditKey(tx, request, 'key.revoke', current.id);
      return revoked;
    });
    await verifier.changed(row.id);
    const gone = deleted(row.id, row.deletedAt!);
    await publish(row, gone[row.id]!);
    return { keys: gone };
  });
}
