/**
 * Stored uploads' API (docs/jobs.md): POST /v2/uploads keeps a CSV for JOB_UPLOAD_HOURS so jobs can be made from it
 * (`POST /v2/jobs?endpoint=…&upload=upl_…`), GET lists and reads them, DELETE removes one (409 while a job made from
 * it has not ended). Made with an API key or a console session, admitted and rate-limited as a lookup; seen by their
 * maker and by administrators of their organization, anyone else getting 404.
 */
import { UPLOAD_ID_PATTERN, UPLOAD_MESSAGES } from '@tessera/common/uploads';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest, Conflict, NotFound } from '../../http/errors';
import { deleted } from '../../http/keyed';
import { expansionBounded } from '../identities/csv-stream';
import { identify } from '../identities/service';
import { idempotentCreate } from './idempotent-create';
import { pageOf, pageQuery } from './paging';
import { type JobRouteDeps, streamedBody, viewerOf } from './routes';
import {
  deleteUpload,
  findUpload,
  jobUsing,
  listUploads,
  lockUpload,
  storeCsvUpload,
  toUpload,
  type UploadRow,
} from './stored-uploads';

export function registerUploadRoutes(app: FastifyInstance, deps: JobRouteDeps): void {
  const { lookups } = deps;
  const database = lookups.database;

  async function uploadOf(request: FastifyRequest): Promise<UploadRow> {
    const viewer = await viewerOf(deps, request);
    const { id } = request.params as { id: string };
    const upload = UPLOAD_ID_PATTERN.test(id) ? await findUpload(database.db, viewer, id) : null;
    if (!upload) throw new NotFound(UPLOAD_MESSAGES.notFound);
    return upload;
  }

  app.post('/v2/uploads', async (request, reply) => {
    const caller = await identify(lookups, request, reply, { purpose: false });
    const received = streamedBody(request);
    if (!received) throw new BadRequest(UPLOAD_MESSAGES.body, [{ path: 'body', message: UPLOAD_MESSAGES.body }]);
    const { terms: _, ...maker } = caller;
    return idempotentCreate(lookups, request, reply, caller, expansionBounded(received), async (body) => {
      const row = await storeCsvUpload(database, {
        caller: maker,
        body,
        chunkRows: deps.settings.chunkRows,
        hours: deps.settings.uploadHours,
      });
      return { status: 201, answer: { upload: toUpload(row) }, headers: { location: `/v2/uploads/${row.public_id}` } };
    });
  });

  app.get('/v2/uploads', async (request) => {
    const viewer = await viewerOf(deps, request);
    const { limit, before } = await pageQuery(request.query as Record<string, unknown>, 'an upload', (id) =>
      UPLOAD_ID_PATTERN.test(id) ? findUpload(database.db, viewer, id) : Promise.resolve(null),
    );
    const { page, next } = pageOf(await listUploads(database.db, viewer, limit + 1, before), limit);
    return { uploads: page.map(toUpload), next };
  });

  app.get('/v2/uploads/:id', async (request) => ({ upload: toUpload(await uploadOf(request)) }));

  app.delete('/v2/uploads/:id', async (request) => {
    const upload = await uploadOf(request);
    await database.transaction(async (tx) => {
      // Held against a job being made from it meanwhile (jobFromUpload holds it FOR SHARE while it makes one).
      await lockUpload(tx, upload.id);
      const job = await jobUsing(tx, upload.id);
      if (job) throw new Conflict(UPLOAD_MESSAGES.inUse(job));
      await deleteUpload(tx, upload.id);
    });
    return { uploads: deleted(upload.public_id) };
  });
}
