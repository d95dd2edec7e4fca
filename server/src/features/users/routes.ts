/** /v2/users (decision 0007): read, create, edit and delete users under the spec §6 rules, and upload pictures. */

import type { UserEntry } from '@tessera/common/resources';
import { IMAGE_MAX_BYTES, RESOURCE_PATHS } from '@tessera/common/resources';
import { canEditUser } from '@tessera/common/roles';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireRank } from '../../http/auth';
import { AppError, BadRequest, Forbidden } from '../../http/errors';
import { eachOf, idListParams } from '../../http/id-list';
import { deleted, keyed } from '../../http/keyed';
import { actsAcrossOrganizations } from '../console/access';
import { dropUnusedImage, IMAGE_MESSAGES, storeImage } from '../images/store';
import { idParams } from '../organizations/schemas';
import type { Limiter } from '../throttle/limiter';
import { THROTTLE_RULES, throttle } from '../throttle/rules';
import { toUserEntry } from './entry';
import { USER_MESSAGES, type UserManagement } from './manage';
import { listUsers } from './repo';
import { newUserBody, userPatch, usersQuery } from './schemas';

/** The reply to a change: the user, and `self` when they changed themselves (their card shows it at once). */
function changed(request: FastifyRequest, entry: UserEntry) {
  const users = keyed([entry]);
  if (entry.id !== request.user.id) return { users };
  return { users, self: { ...request.user, name: entry.name, title: entry.title, image: entry.image } };
}

async function readUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new BadRequest(IMAGE_MESSAGES.missing);
  try {
    const file = await request.file({ limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
    if (file?.fieldname !== 'file') throw new BadRequest(IMAGE_MESSAGES.missing);
    return await file.toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const { code, statusCode } = err as { code?: string; statusCode?: number };
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'bad_request', IMAGE_MESSAGES.tooLarge);
    if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) throw err; // the plugin's own limits
    // A body cut off or malformed (multipart 10 throws where 9 returned nothing): the client's, not a fault of ours.
    throw new BadRequest(IMAGE_MESSAGES.malformed);
  }
}

export function registerUserRoutes(
  app: FastifyInstance,
  deps: { database: Database; manage: UserManagement; limiter: Limiter },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, manage } = deps;
  const who = (request: FastifyRequest) => ({ user: request.user, ip: request.ip });

  r.get(
    RESOURCE_PATHS.users,
    { preHandler: requireRank('user'), schema: { querystring: usersQuery } },
    async (request) => {
      const { user } = request;
      let { organizationId } = request.query;
      if (!actsAcrossOrganizations(user)) {
        // Everyone else sees the members of their own organization (or only themselves, without one).
        if (organizationId !== undefined && organizationId !== user.organizationId) return { users: {} };
        if (user.organizationId === null) return { users: keyed([await manage.get(user, user.id)]) };
        organizationId = user.organizationId;
      }
      const rows = await listUsers(database.db, organizationId);
      return { users: keyed(rows.map((row) => toUserEntry(row.user, row.organizationName))) };
    },
  );

  // One id or a comma-separated list (spec §2); one out of reach refuses the list as it would alone.
  r.get(
    `${RESOURCE_PATHS.users}/:id`,
    { preHandler: requireRank('user'), schema: { params: idListParams } },
    async (request) => ({
      users: keyed(await eachOf(request.params.id, (id) => manage.get(request.user, id))),
    }),
  );

  r.post(
    RESOURCE_PATHS.users,
    { preHandler: requireRank('admin'), schema: { body: newUserBody } },
    async (request) => ({ users: keyed([await manage.create(who(request), request.body)]) }),
  );

  r.put(
    `${RESOURCE_PATHS.users}/:id`,
    { preHandler: requireRank('user'), schema: { params: idParams, body: userPatch } },
    async (request) => {
      const before = request.body.image === '' ? await manage.get(request.user, request.params.id) : null;
      const entry = await manage.update(who(request), request.params.id, request.body);
      if (before?.image) await dropUnusedImage(database.db, before.image);
      return changed(request, entry);
    },
  );

  r.delete(
    `${RESOURCE_PATHS.users}/:id`,
    { preHandler: requireRank('admin'), schema: { params: idParams } },
    async (request) => {
      const { id } = request.params;
      return { users: deleted(id, await manage.remove(who(request), id)) };
    },
  );

  r.post(
    RESOURCE_PATHS.userImage(':id'),
    { preHandler: requireRank('user'), schema: { params: idParams } },
    async (request) => {
      const { id } = request.params;
      // Checked before the upload is read, so a refused caller costs no more than its headers.
      const target = await manage.get(request.user, id);
      if (!canEditUser(request.user, target)) throw new Forbidden(USER_MESSAGES.editRefused);
      await throttle(deps.limiter, [[`upload:user:${request.user.id}`, THROTTLE_RULES.uploadsPerUser]]);
      const name = await storeImage(database.db, await readUpload(request), request.user.id);
      const entry = await manage.update(who(request), id, { image: RESOURCE_PATHS.image(name) });
      if (target.image && target.image !== entry.image) await dropUnusedImage(database.db, target.image);
      return changed(request, entry);
    },
  );
}
