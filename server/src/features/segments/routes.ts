/**
 * /v2/segments (issue 19, decision 0035). System administrators (super+) build, count, preview, save, change,
 * delete and assign segments. An organization's users list the segments assigned to it and export them, metered and
 * priced like lookups; a segment not assigned to their organization is refused (403) without saying whether it
 * exists, while super+ get 404 for one that does not.
 */
import type { User } from '@tessera/common/entities';
import { hasRank } from '@tessera/common/roles';
import { SEGMENT_MESSAGES, type Segment } from '@tessera/common/segments';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../db/client';
import { requireRank } from '../../http/auth';
import { BadRequest, Forbidden, NotFound, Unauthorized } from '../../http/errors';
import { actorOf, audit } from '../audit/record';
import { auditMembers, filtersValue } from './audit';
import { type ExportDeps, streamSegmentExport } from './export';
import {
  countMembers,
  deleteSegment,
  findSegment,
  insertSegment,
  listSegments,
  previewMembers,
  unknownOrganizations,
  updateSegment,
} from './repo';
import { exportQuery, filtersBody, segmentBody, segmentChange, segmentParams } from './schemas';

const isStaff = (user: User) => hasRank(user.role, 'super');

/** super+ only: 401 when signed out, 403 below super (before the body is read: guards run on request). */
async function staffOnly(request: FastifyRequest): Promise<void> {
  if (isStaff(request.user)) return;
  if (request.user.id === 0) throw new Unauthorized();
  throw new Forbidden(SEGMENT_MESSAGES.forbidden);
}

/** What a caller sees of a segment: staff all of it, an organization's users not whom else it is assigned to. */
const seenBy = (user: User, s: Segment): Segment =>
  isStaff(user) ? s : { ...s, organizationIds: s.organizationIds.filter((id) => id === user.organizationId) };

const keyed = (list: Segment[]) => ({ segments: Object.fromEntries(list.map((s) => [String(s.id), s])) });

/** The segment a caller may read: staff any (404 when none), others one assigned to their organization (403). */
async function readable(database: Database, user: User, id: number): Promise<Segment> {
  const segment = await findSegment(database.db, id);
  if (isStaff(user)) {
    if (!segment) throw new NotFound(SEGMENT_MESSAGES.notFound);
    return segment;
  }
  if (!segment || user.organizationId === null || !segment.organizationIds.includes(user.organizationId)) {
    throw new Forbidden(SEGMENT_MESSAGES.notAssigned);
  }
  return segment;
}

async function mustExist(db: Parameters<typeof unknownOrganizations>[0], ids: number[] | undefined): Promise<void> {
  const unknown = await unknownOrganizations(db, ids ?? []);
  if (unknown.length === 0) return;
  const message = SEGMENT_MESSAGES.unknownOrganization(unknown[0]!);
  throw new BadRequest(message, [{ path: 'body.organizationIds', message }]);
}

/** Segment changes in the audit log: who made an audience, or gave it to organizations (issue 19). */
const record = (
  tx: Executor,
  request: FastifyRequest,
  action: 'segment.create' | 'segment.update' | 'segment.delete',
  id: number,
  detail: Record<string, unknown> = {},
) => audit(tx, { action, ...actorOf(request), targetType: 'segment', targetId: id, detail });

export function registerSegmentRoutes(app: FastifyInstance, deps: ExportDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;
  const byId = '/v2/segments/:id';

  r.get('/v2/segments', { onRequest: requireRank('user') }, async (request) => {
    const { user } = request;
    const list = await listSegments(database.db, isStaff(user) ? undefined : user.organizationId);
    return keyed(list.map((s) => seenBy(user, s)));
  });

  r.get(byId, { onRequest: requireRank('user'), schema: { params: segmentParams } }, async (request) => {
    const segment = await readable(database, request.user, request.params.id);
    return keyed([seenBy(request.user, segment)]);
  });

  r.post('/v2/segments', { onRequest: staffOnly, schema: { body: segmentBody } }, async (request, reply) => {
    const segment = await database.transaction(async (tx) => {
      await mustExist(tx, request.body.organizationIds);
      const made = await insertSegment(tx, { ...request.body, createdBy: request.user.id });
      await record(tx, request, 'segment.create', made.id, { organizationIds: made.organizationIds });
      return made;
    });
    return reply.code(201).send(keyed([segment]));
  });

  r.put(byId, { onRequest: staffOnly, schema: { params: segmentParams, body: segmentChange } }, async (request) => {
    const { id } = request.params;
    const segment = await database.transaction(async (tx) => {
      if (!(await findSegment(tx, id, true))) throw new NotFound(SEGMENT_MESSAGES.notFound);
      await mustExist(tx, request.body.organizationIds);
      await updateSegment(tx, id, request.body);
      const { organizationIds } = request.body;
      await record(tx, request, 'segment.update', id, {
        fields: Object.keys(request.body),
        ...(organizationIds ? { organizationIds } : {}),
      });
      return (await findSegment(tx, id))!;
    });
    return keyed([segment]);
  });

  r.delete(byId, { onRequest: staffOnly, schema: { params: segmentParams } }, async (request) => {
    const { id } = request.params;
    const segment = await database.transaction(async (tx) => {
      const found = await findSegment(tx, id, true);
      if (!found) throw new NotFound(SEGMENT_MESSAGES.notFound);
      const deletedAt = await deleteSegment(tx, id);
      await record(tx, request, 'segment.delete', id);
      return { ...found, organizationIds: [], deletedAt, updatedAt: deletedAt };
    });
    return keyed([segment]);
  });

  r.post('/v2/segments/count', { onRequest: staffOnly, schema: { body: filtersBody } }, async (request) => ({
    count: await countMembers(database, request.body.filters),
  }));

  r.post('/v2/segments/preview', { onRequest: staffOnly, schema: { body: filtersBody } }, async (request) => {
    const members = await previewMembers(database, request.body.filters);
    // The preview shows people: on the lookup audit trail like any answer that does (issue 28, finding 7).
    await auditMembers(
      {
        database,
        auditHasher: deps.auditHasher,
        request,
        userId: request.user.id,
        organizationId: request.user.organizationId ?? null,
        path: '/segments/preview',
      },
      0,
      { kind: 'segment-filters', text: filtersValue(request.body.filters) },
      members.map((m) => m.id),
    );
    return { members };
  });

  r.get(
    `${byId}/export.csv`,
    { onRequest: requireRank('user'), schema: { params: segmentParams, querystring: exportQuery } },
    async (request, reply) => {
      const { user } = request;
      const segment = await readable(database, user, request.params.id);
      const caller = {
        userId: user.id,
        organizationId: user.organizationId,
        role: user.role,
        allowedRecordTypes: user.allowedRecordTypes,
        keyId: null,
        rateLimit: null,
        mode: 'live' as const,
      };
      return streamSegmentExport(deps, segment, caller, request.query.template, request, reply);
    },
  );
}
