/**
 * /v2/templates (issue 15, decision 0023): list, read, create, edit the draft, publish, restore, delete, and preview
 * an unsaved expression. Out of sight answers 404, like missing; in sight but not editable, 403 (decision 0007).
 */
import type { User } from '@tessera/common/entities';
import { STALE_MESSAGES } from '@tessera/common/etag';
import { hasRank } from '@tessera/common/roles';
import { organizationChannel, selfChannel } from '@tessera/common/socket';
import {
  mayEditTemplate as mayEdit,
  maySeeTemplate as maySee,
  positionIn,
  type Template,
} from '@tessera/common/templates';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../db/client';
import { requireRank } from '../../http/auth';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../http/errors';
import { deleted, keyed } from '../../http/keyed';
import type { Hub } from '../../socket/hub';
import { type AuditAction, actorOf, audit } from '../audit/record';
import { checkIfMatch, digestTag, itemTag, tagged } from '../conditional/preconditions';
import type { LookupDeps } from '../identities/service';
import {
  findTemplate,
  insertTemplate,
  listTemplates,
  listVersions,
  organizationExists,
  principals,
  publishDraft,
  saveDraft,
  softDelete,
  type TemplateRow,
  toTemplate,
  updateTemplate,
  versionExpression,
} from './console-repo';
import { compileTemplate, TemplateError } from './evaluate';
import { renderPreview } from './preview';
import { createTemplateBody, previewBody, restoreBody, templateParams, updateTemplateBody } from './schemas';
import type { TemplateStore } from './store';

export const TEMPLATES_CHANNEL = 'system:templates';

export const TEMPLATE_API_MESSAGES = {
  notFound: 'No such template.',
  notEditable: 'You may not edit this template.',
  systemOnly: 'Only a System Administrator may make a system template or one for another organization.',
  noOrganization: 'You need an organization to make a template.',
  noDraft: 'This template has no draft to publish.',
  noSuchOrganization: (id: number) => `There is no organization ${id}.`,
  noVersion: (version: number) => `This template has no published version ${version}.`,
  notGrantable: (id: number) => `There is no user or organization ${id} you can give this template to.`,
  ambiguous: (id: number) =>
    `${id} is the id of both a user and an organization (from before they were told apart), so it cannot be given this template.`,
} as const;

export interface TemplateRouteDeps {
  database: Database;
  hub: Hub;
  store: TemplateStore;
  lookups: LookupDeps;
}

/** An expression that does not compile: 400 naming it, with JSONata's message and where in the text it failed. */
export function checkExpression(expression: string): void {
  try {
    compileTemplate(expression);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    // The field error carries line and column (1-based) besides the usual path and message.
    const field = { path: 'body.expression', message: error.message, ...positionIn(expression, error.start ?? 0) };
    throw new BadRequest(`The expression does not compile: ${error.message}`, [field]);
  }
}

export function registerTemplateRoutes(app: FastifyInstance, deps: TemplateRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, hub, store } = deps;
  // Before validation, so a signed-out caller learns nothing of what a body should hold.
  const signedIn = { onRequest: requireRank('user') };

  const auditTemplate = (db: Executor, request: FastifyRequest, action: AuditAction, id: number, detail?: object) =>
    audit(db, {
      action,
      ...actorOf(request),
      targetType: 'template',
      targetId: id,
      detail: detail as Record<string, unknown> | undefined,
    });

  /**
   * Pushes to the consoles that see it by REST: its organization's members, the users and organizations in adminIds
   * (each id on both kinds of channel, since the list mixes them; the hub lets only that user or those members hear),
   * and super+ on the system channel. A system template's changes go to super+ only; others read them on their next
   * fetch.
   */
  async function publish(row: Pick<TemplateRow, 'id' | 'organizationId' | 'adminIds'>, item: object) {
    const templates = { [row.id]: item };
    const channels = new Set<string>([TEMPLATES_CHANNEL]);
    if (row.organizationId !== null) {
      channels.add(organizationChannel(row.organizationId));
      for (const id of row.adminIds) {
        channels.add(selfChannel(id));
        channels.add(organizationChannel(id));
      }
    }
    for (const channel of channels) await hub.publish(channel, { templates });
  }

  async function visible(db: Executor, user: User, id: number, forUpdate = false): Promise<TemplateRow> {
    const row = await findTemplate(db, id, forUpdate);
    if (!row || !maySee(user, row)) throw new NotFound(TEMPLATE_API_MESSAGES.notFound);
    return row;
  }

  /** The template locked for the edit; 412 when the request's If-Match names a version it has moved on from. */
  async function editable(db: Executor, request: FastifyRequest, id: number): Promise<TemplateRow> {
    const row = await visible(db, request.user, id, true);
    if (!mayEdit(request.user, row)) throw new Forbidden(TEMPLATE_API_MESSAGES.notEditable);
    checkIfMatch(request, row.updatedAt, STALE_MESSAGES.template);
    return row;
  }

  /** The editor may name in adminIds only users and organizations they can see; ids already there may stay. */
  async function checkGrants(db: Executor, user: User, adminIds: number[], kept: readonly number[] = []) {
    const added = [...new Set(adminIds)].filter((id) => !kept.includes(id));
    if (added.length === 0) return;
    const scope = hasRank(user.role, 'super') ? null : (user.organizationId ?? -1);
    const named = await principals(db, added, scope);
    for (const id of added) {
      const what = named.get(id);
      const message = !what?.visible
        ? TEMPLATE_API_MESSAGES.notGrantable(id)
        : what.kinds > 1
          ? TEMPLATE_API_MESSAGES.ambiguous(id)
          : null;
      if (message) throw new BadRequest(message, [{ path: 'body.adminIds', message }]);
    }
  }

  async function reply(db: Executor, id: number): Promise<Template> {
    const row = await findTemplate(db, id);
    if (!row) throw new NotFound(TEMPLATE_API_MESSAGES.notFound);
    return toTemplate(row, await listVersions(db, id));
  }

  /** The changed template, pushed, and as the reply with its new ETag. */
  async function changed(id: number, out: FastifyReply): Promise<{ templates: Record<string, Template> }> {
    const item = await reply(database.db, id);
    await publish(item, item);
    out.header('etag', itemTag(item.updatedAt));
    return { templates: keyed([item]) };
  }

  r.get('/v2/templates', signedIn, async (request, reply) => {
    const { user } = request;
    const rows = await listTemplates(
      database.db,
      hasRank(user.role, 'super') ? null : { userId: user.id, organizationId: user.organizationId },
    );
    const body = { templates: keyed(rows.map((row) => toTemplate(row))) };
    return tagged(request, reply, digestTag(body), body);
  });

  r.get('/v2/templates/:id', { ...signedIn, schema: { params: templateParams } }, async (request, reply) => {
    const row = await visible(database.db, request.user, request.params.id);
    const body = { templates: keyed([toTemplate(row, await listVersions(database.db, row.id))]) };
    return tagged(request, reply, itemTag(row.updatedAt.toISOString()), body);
  });

  r.post('/v2/templates', { ...signedIn, schema: { body: createTemplateBody } }, async (request, out) => {
    const { user } = request;
    const body = request.body;
    const organizationId = body.organizationId === undefined ? user.organizationId : body.organizationId;
    if (!hasRank(user.role, 'super')) {
      if (organizationId !== user.organizationId) throw new Forbidden(TEMPLATE_API_MESSAGES.systemOnly);
      if (organizationId === null) throw new Forbidden(TEMPLATE_API_MESSAGES.noOrganization);
    }
    checkExpression(body.expression);
    const id = await database.transaction(async (tx) => {
      if (organizationId !== null && organizationId !== user.organizationId) {
        if (!(await organizationExists(tx, organizationId))) {
          const message = TEMPLATE_API_MESSAGES.noSuchOrganization(organizationId);
          throw new BadRequest(message, [{ path: 'body.organizationId', message }]);
        }
      }
      await checkGrants(tx, user, body.adminIds);
      // Whoever makes a template can edit it afterwards (spec §6 asks their id be in adminIds).
      const adminIds = mayEdit(user, { organizationId, adminIds: body.adminIds })
        ? body.adminIds
        : [...body.adminIds, user.id];
      const created = await insertTemplate(tx, {
        name: body.name,
        description: body.description,
        organizationId,
        adminIds,
        createdBy: user.id,
        expression: body.expression,
      });
      await auditTemplate(tx, request, 'template.create', created);
      return created;
    });
    return changed(id, out);
  });

  r.put(
    '/v2/templates/:id',
    { ...signedIn, schema: { params: templateParams, body: updateTemplateBody } },
    async (request, out) => {
      const { user, body } = request;
      if (body.expression !== undefined) checkExpression(body.expression);
      // One transaction: a save refused part-way leaves the template and its previous draft as they were.
      await database.transaction(async (tx) => {
        const row = await editable(tx, request, request.params.id);
        if (body.adminIds) await checkGrants(tx, user, body.adminIds, row.adminIds);
        await updateTemplate(tx, row.id, body);
        if (body.expression !== undefined) await saveDraft(tx, row.id, body.expression, user.id);
        await auditTemplate(tx, request, 'template.update', row.id, { fields: Object.keys(body) });
      });
      return changed(request.params.id, out);
    },
  );

  r.post('/v2/templates/:id/publish', { ...signedIn, schema: { params: templateParams } }, async (request, out) => {
    await database.transaction(async (tx) => {
      const row = await editable(tx, request, request.params.id);
      if (row.draft) checkExpression(row.draft.expression);
      const version = await publishDraft(tx, row);
      if (version === null) throw new Conflict(TEMPLATE_API_MESSAGES.noDraft);
      await auditTemplate(tx, request, 'template.publish', row.id, { version });
    });
    store.forget(request.params.id);
    return changed(request.params.id, out);
  });

  r.post(
    '/v2/templates/:id/restore',
    { ...signedIn, schema: { params: templateParams, body: restoreBody } },
    async (request, out) => {
      const { version } = request.body;
      await database.transaction(async (tx) => {
        const row = await editable(tx, request, request.params.id);
        const expression = await versionExpression(tx, row.id, version);
        if (expression === null) {
          const message = TEMPLATE_API_MESSAGES.noVersion(version);
          throw new NotFound(message);
        }
        await saveDraft(tx, row.id, expression, request.user.id);
        await auditTemplate(tx, request, 'template.restore', row.id, { version });
      });
      return changed(request.params.id, out);
    },
  );

  r.delete('/v2/templates/:id', { ...signedIn, schema: { params: templateParams } }, async (request) => {
    const { row, at } = await database.transaction(async (tx) => {
      const row = await editable(tx, request, request.params.id);
      const at = await softDelete(tx, row.id);
      await auditTemplate(tx, request, 'template.delete', row.id);
      return { row, at };
    });
    store.forget(row.id);
    const gone = deleted(row.id, at);
    await publish(row, gone[row.id]!);
    return { templates: gone };
  });

  r.post('/v2/templates/preview', { ...signedIn, schema: { body: previewBody } }, async (request, reply) => {
    checkExpression(request.body.expression);
    return { preview: await renderPreview(deps, request, reply, request.body) };
  });
}
