/**
 * The bulk job API (issue 33 item 3, docs/jobs.md): POST /v2/jobs with a CSV body makes a job, GET /v2/jobs lists
 * them, GET /v2/jobs/{id} tells its progress, POST /v2/jobs/{id}/cancel ends it, GET /v2/jobs/{id}/result downloads
 * what it answered. Made by an API key (or a console session) as lookups are; seen by their maker, or by any
 * administrator of its organization; another organization's job is 404.
 */

import { Readable } from 'node:stream';
import { ENDED_JOB_STATUSES, JOB_FORMATS, JOB_ID_PATTERN, JOB_MESSAGES, type JobFormat } from '@tessera/common/jobs';
import { LOOKUP_ENDPOINT_NAMES, type LookupEndpoint } from '@tessera/common/lookups';
import { hasRank } from '@tessera/common/roles';
import { UPLOAD_ID_PATTERN, UPLOAD_MESSAGES } from '@tessera/common/uploads';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rows as rowsOf } from '../../db/rows';
import { AppError, BadRequest, Conflict, NotFound } from '../../http/errors';
import { authenticate, type LookupCaller } from '../identities/caller';
import { expansionBounded } from '../identities/csv-stream';
import { invalid, parseOptions } from '../identities/options';
import { identify, type LookupDeps, prepare } from '../identities/service';
import { idempotentCreate } from './idempotent-create';
import { pageOf, pageQuery } from './paging';
import { cancelJob, findJob, type JobRow, listJobs, toJob, type Viewer } from './repo';
import { enqueueJobEnded } from './runner';
import type { JobSettings } from './settings';
import { mayReadResult } from './standing';
import { jobFromUpload, storeUpload } from './upload';

export interface JobRouteDeps {
  lookups: LookupDeps;
  settings: JobSettings;
  publicUrl: URL;
  /** A job was queued, or ended with an event: the runner and the webhook worker may start at once. */
  kickRunner(): void;
  kickWebhooks(): void;
}

/** Who may see what a caller made: itself, and an administrator the whole organization. */
export const viewerOfCaller = (caller: LookupCaller): Viewer => ({
  userId: caller.userId,
  organizationId: caller.organizationId,
  wholeOrganization: hasRank(caller.role, 'admin'),
});

export async function viewerOf(deps: Pick<JobRouteDeps, 'lookups'>, request: FastifyRequest): Promise<Viewer> {
  return viewerOfCaller(await authenticate(request, deps.lookups.authenticators));
}

/** The request's CSV body as a stream, or null when it has none (no body, or one parsed as JSON). */
export function streamedBody(request: FastifyRequest): AsyncIterable<Buffer> | null {
  const received = request.body as Partial<AsyncIterable<Buffer>> | undefined | null;
  return received && typeof received[Symbol.asyncIterator] === 'function' ? (received as AsyncIterable<Buffer>) : null;
}

async function* nothing(): AsyncGenerator<Buffer> {}

/** The job the path names, if the caller may see it, with the caller. */
async function callerAndJob(
  deps: JobRouteDeps,
  request: FastifyRequest,
): Promise<{ caller: LookupCaller; job: JobRow }> {
  const caller = await authenticate(request, deps.lookups.authenticators);
  const { id } = request.params as { id: string };
  const job = JOB_ID_PATTERN.test(id) ? await findJob(deps.lookups.database.db, viewerOfCaller(caller), id) : null;
  if (!job) throw new NotFound(JOB_MESSAGES.notFound);
  return { caller, job };
}

const jobOf = async (deps: JobRouteDeps, request: FastifyRequest) => (await callerAndJob(deps, request)).job;

/** The query's job settings (endpoint, format) apart from the lookup options, which are the PUT's. */
function jobQuery(query: Record<string, unknown>): {
  endpoint: LookupEndpoint;
  format: JobFormat;
  upload: string | null;
  rest: Record<string, unknown>;
} {
  // `purpose` is the job's permissible purpose, read with the caller's (identify).
  const { endpoint, format, upload, purpose: _purpose, ...rest } = query;
  if (typeof endpoint !== 'string' || !(LOOKUP_ENDPOINT_NAMES as readonly string[]).includes(endpoint)) {
    throw invalid([
      { path: 'querystring.endpoint', message: JOB_MESSAGES.endpoint(String(endpoint ?? ''), LOOKUP_ENDPOINT_NAMES) },
    ]);
  }
  if (format !== undefined && !(JOB_FORMATS as readonly unknown[]).includes(format)) {
    throw invalid([{ path: 'querystring.format', message: JOB_MESSAGES.format }]);
  }
  if (upload !== undefined && !(typeof upload === 'string' && UPLOAD_ID_PATTERN.test(upload))) {
    throw invalid([{ path: 'querystring.upload', message: UPLOAD_MESSAGES.upload }]);
  }
  const given = (upload as string | undefined) ?? null;
  return {
    endpoint: endpoint as LookupEndpoint,
    format: (format as JobFormat | undefined) ?? 'csv',
    upload: given,
    rest,
  };
}

export function registerJobRoutes(app: FastifyInstance, deps: JobRouteDeps): void {
  const { lookups } = deps;
  const database = lookups.database;

  app.post('/v2/jobs', async (request, reply) => {
    const caller = await identify(lookups, request, reply);
    const { endpoint, format, upload, rest } = jobQuery(request.query as Record<string, unknown>);
    // The options a PUT takes, but its `format` (a job's result is csv or jsonl).
    const options = parseOptions(rest, 'querystring', []);
    // An unknown template is refused now, not when the job runs.
    await prepare(lookups, caller, options);
    // A job's rows are its body's, or a stored upload's: not both. A body is sent with a Content-Length above 0 or
    // a Transfer-Encoding (HTTP/1.1); a Content-Type alone sends none.
    const length = Number(request.headers['content-length'] ?? 0);
    const sent =
      request.body !== undefined && request.body !== null && (length > 0 || !!request.headers['transfer-encoding']);
    const received = sent ? streamedBody(request) : null;
    if (upload !== null && sent) {
      throw new BadRequest(UPLOAD_MESSAGES.bodyAndUpload, [{ path: 'body', message: UPLOAD_MESSAGES.bodyAndUpload }]);
    }
    if (upload === null && !received) {
      throw new BadRequest(JOB_MESSAGES.body, [{ path: 'body', message: JOB_MESSAGES.body }]);
    }
    const { terms: _, ...maker } = caller;
    const made = { caller: maker, endpoint, options, format };
    // Bounded before it is hashed: the bound reads what came over the wire from the stream it is given.
    const body = received ? expansionBounded(received) : nothing();
    return idempotentCreate(lookups, request, reply, caller, body, async (hashed) => {
      const publicId =
        upload === null
          ? await storeUpload(database, { ...made, body: hashed, chunkRows: deps.settings.chunkRows })
          : await jobFromUpload(database, { ...made, upload, viewer: viewerOfCaller(caller) });
      deps.kickRunner();
      const job = await findJob(database.db, { ...viewerOfCaller(caller), wholeOrganization: false }, publicId);
      return { status: 202, answer: { job: toJob(job!) }, headers: { location: `/v2/jobs/${publicId}` } };
    });
  });

  app.get('/v2/jobs', async (request) => {
    const viewer = await viewerOf(deps, request);
    const { limit, before } = await pageQuery(request.query as Record<string, unknown>, 'a job', (id) =>
      JOB_ID_PATTERN.test(id) ? findJob(database.db, viewer, id) : Promise.resolve(null),
    );
    const { page, next } = pageOf(await listJobs(database.db, viewer, limit + 1, before), limit);
    return { jobs: page.map(toJob), next };
  });

  app.get('/v2/jobs/:id', async (request) => ({ job: toJob(await jobOf(deps, request)) }));

  app.post('/v2/jobs/:id/cancel', async (request) => {
    const job = await jobOf(deps, request);
    const cancelled = await database.transaction(async (tx) => {
      const row = await cancelJob(tx, job.id, deps.settings.resultDays);
      if (row) await enqueueJobEnded(tx, row, deps.publicUrl);
      return row;
    });
    if (!cancelled) throw new Conflict(JOB_MESSAGES.ended(job.status));
    deps.kickWebhooks();
    return { job: toJob(cancelled) };
  });

  app.get('/v2/jobs/:id/result', async (request, reply) => {
    const { caller, job } = await callerAndJob(deps, request);
    // Whoever reads it (its maker too) may see every record type it may hold, as they stand now.
    mayReadResult(caller, job);
    if (!ENDED_JOB_STATUSES.includes(job.status)) throw new Conflict(JOB_MESSAGES.notEnded);
    if (job.expires_at !== null && new Date(job.expires_at).getTime() <= Date.now()) {
      throw new AppError(410, 'gone', JOB_MESSAGES.expired(deps.settings.resultDays));
    }
    const chunks = job.chunks_done;
    // A piece at a time, in order: memory holds one chunk's result whatever the job's length.
    async function* pieces(): AsyncGenerator<Buffer> {
      for (let chunk = 0; chunk < chunks; chunk++) {
        const [piece] = await rowsOf<{ body: Uint8Array }>(
          database.db,
          sql`select body from bulk_job_results where job_id = ${job.id} and chunk = ${chunk}`,
        );
        if (!piece) return; // pruned while being read: the download ends short rather than lie
        yield Buffer.from(piece.body);
      }
    }
    const csv = job.format === 'csv';
    reply.type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${job.public_id}.${csv ? 'csv' : 'jsonl'}"`);
    return reply.send(Readable.from(pieces()));
  });
}
