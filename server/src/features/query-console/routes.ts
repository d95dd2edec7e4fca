/**
 * The read-only query console (issue 20 item 2), root only. Running anything needs a fresh step-up (403
 * step_up_required otherwise); history, saved queries and the completion schema need root alone.
 */
import { once } from 'node:events';
import type { QueryColumn, QueryResult } from '@tessera/common/query-console';
import { QUERY_MESSAGES } from '@tessera/common/query-console';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireRank } from '../../http/auth';
import { stringify } from '../../http/csv';
import { NotFound } from '../../http/errors';
import { requireStepUp } from '../auth/step-up';
import { BOUNDARY_MESSAGES, RESULT_MAX_BYTES } from './boundary';
import { deleteSaved, insertSaved, listRuns, listSaved, updateSaved } from './repo';
import type { Cell, Cut } from './runner';
import { cancelBody, idParams, queryBody, savedBody, schemaQuery } from './schemas';
import type { QueryConsole } from './service';

/** Rows the CSV export fetches per round trip, each written out before the next is fetched. */
const CSV_BATCH = 1_000;

function caller(request: FastifyRequest) {
  return { user: request.user, ip: request.ip };
}

/** What a cut result says: the byte cap's message, or the row cap's. */
function notice(cut: Cut, maxRows: number): string | undefined {
  if (cut === 'bytes') return BOUNDARY_MESSAGES.cutBytes(RESULT_MAX_BYTES);
  if (cut === 'rows') return BOUNDARY_MESSAGES.cutRows(maxRows);
  return undefined;
}

/** POST /v2/query's reply: QueryResult, with why a cut result was cut. */
type QueryReply = QueryResult & { cut?: 'rows' | 'bytes'; notice?: string };

export function registerQueryRoutes(app: FastifyInstance, deps: { database: Database; console: QueryConsole }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, console: queries } = deps;
  const root = { preValidation: requireRank('root') };
  const stepUp = { preValidation: requireStepUp(database) };

  r.post('/v2/query', { ...stepUp, schema: { body: queryBody } }, async (request): Promise<QueryReply> => {
    let columns: QueryColumn[] = [];
    const rows: Cell[][] = [];
    const done = await queries.run(caller(request), request.body, {
      columns: (c) => {
        columns = c;
      },
      rows: (batch) => {
        rows.push(...batch);
      },
    });
    const cut = done.cut ? { cut: done.cut, notice: notice(done.cut, request.body.maxRows) } : {};
    return { columns, rows, rowCount: done.rowCount, truncated: done.truncated, ms: done.ms, ...cut };
  });

  // The whole result as CSV, up to the row and byte caps, written out batch by batch as it is fetched. A refusal or
  // an error before the first row is the usual JSON error; one after it cuts the download short. A result cut by a
  // cap says so in X-Query-Truncated (rows or bytes) and X-Query-Notice.
  r.post('/v2/query/csv', { ...stepUp, schema: { body: queryBody } }, async (request, reply) => {
    const out = stringify();
    const { cluster } = request.body;
    const embedded = queries.clusterNames().includes(cluster) && queries.engineOf(cluster) === 'pglite';
    const held: Cell[][] = [];
    let cut: Cut = null;
    let sending = false;
    let begin: () => void = () => {};
    const begun = new Promise<void>((resolve) => {
      begin = () => {
        sending = true;
        resolve();
      };
    });
    const write = async (rows: Cell[][]) => {
      for (const row of rows) if (!out.write(row)) await once(out, 'drain');
    };
    const run = queries.run(
      caller(request),
      request.body,
      {
        columns: (columns, cutBy) => {
          cut = cutBy;
          out.write(columns.map((c) => c.name));
          begin();
        },
        // The embedded engine holds its one connection for the whole run: its rows are written once it is over.
        rows: (rows) => (embedded ? void held.push(...rows) : write(rows)),
      },
      CSV_BATCH,
    );
    run.then(
      () =>
        write(held).then(
          () => out.end(),
          (err) => out.destroy(err),
        ),
      // Before the first row the error is the reply (below); after it, it cuts the download short.
      (err) => (sending ? out.destroy(err) : out.destroy()),
    );
    await Promise.race([begun, run]);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="query-${cluster}-${stamp}.csv"`);
    if (cut) reply.header('x-query-truncated', cut).header('x-query-notice', notice(cut, request.body.maxRows));
    return reply.send(out);
  });

  r.post('/v2/query/cancel', { ...root, schema: { body: cancelBody } }, async (request) => ({
    queryCancel: await queries.cancel(caller(request), request.body.runId),
  }));

  r.get('/v2/query/schema', { ...root, schema: { querystring: schemaQuery } }, async (request) => ({
    querySchema: { cluster: request.query.cluster, tables: await queries.schema(request.query.cluster) },
  }));

  r.get('/v2/query/clusters', root, async () => ({ queryClusters: queries.clusterNames() }));

  r.get('/v2/query/history', root, async (request) => ({
    queryHistory: await listRuns(database.db, request.user.id),
  }));

  r.get('/v2/saved-queries', root, async (request) => ({
    savedQueries: await listSaved(database.db, request.user.id),
  }));

  r.post('/v2/saved-queries', { ...root, schema: { body: savedBody } }, async (request, reply) => {
    queries.engineOf(request.body.cluster); // an unknown cluster is a 400 naming the known ones
    const savedQuery = await insertSaved(database.db, request.user.id, request.body);
    reply.code(201);
    return { savedQuery, savedQueries: await listSaved(database.db, request.user.id) };
  });

  r.put('/v2/saved-queries/:id', { ...root, schema: { params: idParams, body: savedBody } }, async (request) => {
    queries.engineOf(request.body.cluster);
    const savedQuery = await updateSaved(database.db, request.user.id, request.params.id, request.body);
    if (!savedQuery) throw new NotFound(QUERY_MESSAGES.savedNotFound);
    return { savedQuery, savedQueries: await listSaved(database.db, request.user.id) };
  });

  r.delete('/v2/saved-queries/:id', { ...root, schema: { params: idParams } }, async (request) => {
    if (!(await deleteSaved(database.db, request.user.id, request.params.id))) {
      throw new NotFound(QUERY_MESSAGES.savedNotFound);
    }
    return { savedQueries: await listSaved(database.db, request.user.id) };
  });
}
