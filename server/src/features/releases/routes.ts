/**
 * /v2/releases (issue 21, decision 0038), root only: list and read (one id or a comma-separated list), cut a draft
 * from a commit (its artifact built then), edit and delete drafts, publish (one id or a list). A published release
 * never changes (409).
 */
import { randomUUID } from 'node:crypto';
import { DEPLOYMENTS_CHANNEL, DEPLOYMENTS_ROLE, RELEASE_MESSAGES } from '@tessera/common/deployments';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../db/client';
import { requireRank } from '../../http/auth';
import { AppError, BadRequest, Conflict, NotFound } from '../../http/errors';
import { idListParams } from '../../http/id-list';
import { deleted, keyed } from '../../http/keyed';
import type { Hub } from '../../socket/hub';
import { type AuditAction, actorOf, audit } from '../audit/record';
import { type Artifact, buildArtifact, removeArtifact, resolveCommit } from './artifact';
import * as repo from './repo';
import { releaseBody, releaseParams, releasesDeletedReply, releasesReply, releaseUpdateBody } from './schemas';

export interface ReleaseDeps {
  database: Database;
  hub: Pick<Hub, 'publish'>;
  repoDir: string;
  releasesDir: string;
}

const guard = { preHandler: requireRank(DEPLOYMENTS_ROLE) };

export function registerReleaseRoutes(app: FastifyInstance, deps: ReleaseDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, hub, repoDir, releasesDir } = deps;
  const push = (payload: Record<string, unknown>) =>
    hub.publish(DEPLOYMENTS_CHANNEL, payload, { minRank: DEPLOYMENTS_ROLE }).catch(() => undefined);

  const record = (tx: Executor, request: FastifyRequest, action: AuditAction, id: number, detail = {}) =>
    audit(tx, {
      action,
      ...actorOf(request),
      targetType: 'release',
      targetId: id,
      detail,
    });

  /** The artifact of a commit that exists, or a 400 naming the problem. */
  async function build(commit: string): Promise<{ full: string; artifact: Artifact }> {
    const full = await resolveCommit(repoDir, commit);
    if (!full)
      throw new BadRequest(RELEASE_MESSAGES.commitMissing, [
        { path: 'body.commit', message: RELEASE_MESSAGES.commitMissing },
      ]);
    const name = `tessera-${full.slice(0, 12)}-${randomUUID().slice(0, 8)}.tar.gz`;
    try {
      return { full, artifact: await buildArtifact(repoDir, full, releasesDir, name) };
    } catch (error) {
      app.log.error({ err: error, commit: full }, 'release artifact build failed');
      throw new AppError(500, 'internal', RELEASE_MESSAGES.build);
    }
  }

  /** Runs `write` with a freshly built artifact, removing it again when the write does not land. */
  async function withArtifact<T>(artifact: Artifact, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      await removeArtifact(releasesDir, artifact.file);
      throw error;
    }
  }

  r.get('/v2/releases', { ...guard, schema: { response: { 200: releasesReply } } }, async () => ({
    releases: keyed((await repo.listReleases(database.db)).map(repo.toRelease)),
  }));

  r.get(
    '/v2/releases/:id',
    { ...guard, schema: { params: idListParams, response: { 200: releasesReply } } },
    async (request) => {
      const rows = await repo.findReleases(database.db, request.params.id);
      if (rows.length !== request.params.id.length) throw new NotFound(RELEASE_MESSAGES.notFound);
      return { releases: keyed(rows.map(repo.toRelease)) };
    },
  );

  r.post(
    '/v2/releases',
    { ...guard, schema: { body: releaseBody, response: { 201: releasesReply } } },
    async (request, reply) => {
      const { version, commit, notes } = request.body;
      if (await repo.versionTaken(database.db, version)) throw new Conflict(RELEASE_MESSAGES.versionTaken);
      const { full, artifact } = await build(commit);
      const row = await withArtifact(artifact, () =>
        database.transaction(async (tx) => {
          if (await repo.versionTaken(tx, version)) throw new Conflict(RELEASE_MESSAGES.versionTaken);
          const created = await repo.insertRelease(tx, {
            version,
            notes,
            commit: full,
            artifact: artifact.file,
            artifactSize: artifact.size,
            artifactSha256: artifact.sha256,
            createdBy: request.user.id,
          });
          await record(tx, request, 'release.create', created.id, { version, commit: full });
          return created;
        }),
      );
      const releases = keyed([repo.toRelease(row)]);
      await push({ releases });
      return reply.code(201).send({ releases });
    },
  );

  r.put(
    '/v2/releases/:id',
    { ...guard, schema: { params: releaseParams, body: releaseUpdateBody, response: { 200: releasesReply } } },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      const before = await repo.findRelease(database.db, id);
      if (!before) throw new NotFound(RELEASE_MESSAGES.notFound);
      if (before.status !== 'draft') throw new Conflict(RELEASE_MESSAGES.published);
      if (body.version !== undefined && (await repo.versionTaken(database.db, body.version, id))) {
        throw new Conflict(RELEASE_MESSAGES.versionTaken);
      }
      const rebuilt =
        body.commit !== undefined && !before.commit.startsWith(body.commit) ? await build(body.commit) : null;
      const write = () =>
        database.transaction(async (tx) => {
          const row = await repo.findRelease(tx, id, true);
          if (!row) throw new NotFound(RELEASE_MESSAGES.notFound);
          if (row.status !== 'draft') throw new Conflict(RELEASE_MESSAGES.published);
          if (body.version !== undefined && (await repo.versionTaken(tx, body.version, id))) {
            throw new Conflict(RELEASE_MESSAGES.versionTaken);
          }
          const updated = await repo.updateRelease(tx, id, {
            ...(body.version === undefined ? {} : { version: body.version }),
            ...(body.notes === undefined ? {} : { notes: body.notes }),
            ...(rebuilt
              ? {
                  commit: rebuilt.full,
                  artifact: rebuilt.artifact.file,
                  artifactSize: rebuilt.artifact.size,
                  artifactSha256: rebuilt.artifact.sha256,
                }
              : {}),
          });
          await record(tx, request, 'release.update', id, { fields: Object.keys(body) });
          return { updated, old: row.artifact };
        });
      const { updated, old } = rebuilt ? await withArtifact(rebuilt.artifact, write) : await write();
      if (rebuilt) await removeArtifact(releasesDir, old);
      const releases = keyed([repo.toRelease(updated)]);
      await push({ releases });
      return { releases };
    },
  );

  r.post(
    '/v2/releases/:id/publish',
    { ...guard, schema: { params: idListParams, response: { 200: releasesReply } } },
    async (request) => {
      const ids = request.params.id;
      // One id or a list (spec §2): all are published together, or none when one is missing or not a draft.
      const rows = await database.transaction(async (tx) => {
        const found = await repo.findReleases(tx, ids, true);
        if (found.length !== ids.length) throw new NotFound(RELEASE_MESSAGES.notFound);
        if (found.some((row) => row.status !== 'draft')) throw new Conflict(RELEASE_MESSAGES.published);
        const publishedAt = new Date();
        const published = [];
        for (const row of found) {
          published.push(await repo.updateRelease(tx, row.id, { status: 'published', publishedAt }));
          await record(tx, request, 'release.publish', row.id, { version: row.version });
        }
        return published;
      });
      const releases = keyed(rows.map(repo.toRelease));
      await push({ releases });
      return { releases };
    },
  );

  r.delete(
    '/v2/releases/:id',
    { ...guard, schema: { params: idListParams, response: { 200: releasesDeletedReply } } },
    async (request) => {
      const ids = request.params.id;
      const rows = await database.transaction(async (tx) => {
        const found = await repo.findReleases(tx, ids, true);
        if (found.length !== ids.length) throw new NotFound(RELEASE_MESSAGES.notFound);
        if (found.some((row) => row.status !== 'draft')) throw new Conflict(RELEASE_MESSAGES.published);
        if (await repo.hasDeployments(tx, ids)) throw new Conflict(RELEASE_MESSAGES.deployed);
        await repo.deleteReleases(tx, ids);
        for (const row of found) await record(tx, request, 'release.delete', row.id, { version: row.version });
        return found;
      });
      for (const row of rows) await removeArtifact(releasesDir, row.artifact);
      const releases = Object.assign({}, ...ids.map((id) => deleted(id)));
      await push({ releases });
      return { releases };
    },
  );
}
