/**
 * PUT lookups: a CSV body (a header row naming input columns, then one input per row) streamed back as CSV with
 * the identity columns appended, any number of rows in constant memory. Columns that are not inputs of the
 * endpoint (the caller's own ids, say) are not read as inputs and are written back in their place, row by row. Rows are read, looked up and written a
 * batch at a time, and the next batch is read only when the client has taken the last. Problems with the header
 * or the first batch answer with a status as usual; a bad row later gets its reason in the `error` column, since
 * the reply has begun. Usage is recorded when the last row is written; if that fails the reply is cut short, so
 * the client cannot mistake it for complete. When the server drains, a stream ends after its current batch with a
 * row saying from which line to send again (decision 0021).
 */
import { type Hash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { IDEMPOTENCY, type LookupEndpoint, STREAM_LIMITS } from '@tessera/common/lookups';
import { PURPOSE_PARAMETER } from '@tessera/common/purposes';
import { emptyMetrics } from '@tessera/common/usage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { databaseFault } from '../../db/faults';
import { AppError, BadRequest, Unprocessable } from '../../http/errors';
import { AUDIT_HELD, type AuditedInput, writeAuditApart } from '../lookup-audit/entries';
import { TemplateError } from '../templates/evaluate';
import { RequestIdReused } from '../usage/metering';
import { type CsvRecord, csvRecords } from './csv-input';
import { headerLine } from './csv-output';
import {
  csvLines,
  ERROR_COLUMN,
  headerOf,
  type LookedUp,
  lookUp,
  problem,
  readBatch,
  replyColumns,
  STREAM_MESSAGES,
} from './csv-rows';
import type { Drain } from './drain';
import { type Claim, hashing, requestHasher } from './idempotency';
import { parseOptions } from './options';
import { type Admitted, identify, type LookupDeps, meter, type Prepared, prepare, TemplateFailure } from './service';
import { claimStream, type StreamClaim } from './stream-claims';

/** How long a stream's usage write is retried while the database is away (its rows have been sent). */
export const STREAM_RESOLVE_MS = 30_000;
/** The same for a stream the database's going away stopped: written in the background, the reply already ended. */
export const STOPPED_RESOLVE_MS = 5 * 60_000;

export { ERROR_COLUMN, STREAM_BATCH, STREAM_MESSAGES } from './csv-rows';

const CSV_TYPE = 'text/csv; charset=utf-8';

export async function streamCsvLookup(
  deps: LookupDeps & { drain: Drain },
  endpoint: LookupEndpoint,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const caller = await identify(deps, request, reply);
  const options = parseOptions(request.query as Record<string, unknown>, 'querystring', [PURPOSE_PARAMETER]);
  const prepared = await prepare(deps, caller, options);
  const received = request.body as AsyncIterable<Buffer> | undefined;
  if (!received || typeof (received as Partial<AsyncIterable<Buffer>>)[Symbol.asyncIterator] !== 'function') {
    throw new BadRequest(STREAM_MESSAGES.body, [{ path: 'body', message: STREAM_MESSAGES.body }]);
  }
  // A place among the streams the key and its organization may run at once (429 past them), held to the end, under
  // an id of the server's (a client-sent one could share or free another's place). The end is watched before the
  // place is taken: a client gone while it was being taken must not leave it held.
  let place: StreamClaim | null = null;
  let renewing: NodeJS.Timeout | undefined;
  let gone = false;
  // A client that stops sending and reading is let go of: no bytes either way for this long ends the connection.
  // (A request injected in tests has a socket of its own kind, without timeouts.)
  const socket = typeof request.raw.socket?.setTimeout === 'function' ? request.raw.socket : null;
  reply.raw.once('close', () => {
    gone = true;
    clearInterval(renewing);
    socket?.setTimeout(0);
    void place?.release();
  });
  place = await claimStream(deps.database, caller, randomUUID());
  // The connection may have closed before the watch began (while the caller was identified): gone too.
  if (gone || request.raw.destroyed || request.raw.socket?.destroyed) {
    await place.release();
    return reply;
  }
  socket?.setTimeout(deps.streamIdleMs ?? STREAM_LIMITS.idleSeconds * 1000, () => socket.destroy());
  // The place is a lease, renewed while the stream runs, so a process that dies frees its places by itself.
  const held = place;
  renewing = setInterval(() => void held.renew().catch(() => {}), (STREAM_LIMITS.leaseSeconds * 1000) / 3);
  renewing.unref();
  // With an Idempotency-Key the body is hashed as it is read: a repeat is told from another request at its end.
  const claim = deps.idempotency.keyOf(request, caller);
  const hasher = requestHasher(request);
  const inflated = expansionBounded(received);
  // Hashed as it is read, always: the fingerprint that tells a retry from another request under a used id.
  const body = hashing(inflated, hasher);
  if (claim && !(await deps.idempotency.claim(claim, null, reply))) {
    for await (const _ of body); // a repeat: its body is read only to compare it
    await deps.idempotency.replayIfSame(claim, hasher.digest('hex'), reply);
    return reply;
  }
  try {
    return await answer(deps, endpoint, request, reply, caller, prepared, body, hasher, claim);
  } catch (error) {
    if (claim) await deps.idempotency.abandon(claim);
    throw error;
  }
}

/**
 * A compressed body may grow, as it is read, to at most MAX_EXPANSION times the bytes that came over the wire once
 * past FREE_EXPANSION_BYTES: a PUT has no body limit (it streams), so without this a few megabytes of gzip (or far
 * fewer of brotli) could make the server read gigabytes of blank lines for nothing. Real CSV compresses 3 to 20 times.
 */
export const MAX_EXPANSION = 200;
const FREE_EXPANSION_BYTES = 8 * 1024 * 1024;

export async function* expansionBounded(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  // Set by @fastify/compress on the decompressing stream it hands the route: the compressed bytes read so far.
  const wire = body as { receivedEncodedLength?: number };
  let inflated = 0;
  for await (const chunk of body) {
    inflated += chunk.length;
    const encoded = wire.receivedEncodedLength;
    if (encoded !== undefined && inflated > FREE_EXPANSION_BYTES && inflated > MAX_EXPANSION * encoded) {
      throw new AppError(413, 'payload_too_large', STREAM_MESSAGES.expansion, [
        { path: 'body', message: STREAM_MESSAGES.expansion },
      ]);
    }
    yield chunk;
  }
}

async function answer(
  deps: LookupDeps & { drain: Drain },
  endpoint: LookupEndpoint,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Admitted,
  prepared: Prepared,
  body: AsyncIterable<Buffer>,
  hasher: Hash,
  claim: Claim | null,
): Promise<FastifyReply> {
  const idempotent = claim ? { claim, hasher } : null;
  // The body's digest, once it has all been read (a copy: the idempotent reply takes the hasher's own digest).
  const bodyDigest = () => hasher.copy().digest('hex');
  const records = csvRecords(body)[Symbol.asyncIterator]();
  const metrics = emptyMetrics();
  // The audit rows of the inputs looked up: written with the usage row, or apart past AUDIT_HELD (bounded memory).
  const audit: AuditedInput[] = [];
  const auditCall = {
    requestId: String(request.id),
    userId: caller.userId,
    organizationId: caller.organizationId,
    keyId: caller.keyId,
    method: request.method,
    path: `/${endpoint}`,
    purpose: caller.purpose,
  };
  const header = headerOf((await records.next()).value as CsvRecord | undefined, endpoint);
  let first: Awaited<ReturnType<typeof lookUp>>;
  try {
    first = await lookUp(deps, prepared, await readBatch(records, header, endpoint), metrics, audit);
  } catch (error) {
    // The template failed on the first batch, before the reply began: a plain 422, metered and audited as served.
    if (error instanceof TemplateFailure) {
      metrics.milliseconds = Math.round(reply.elapsedTime);
      await meter(deps, request, { caller, endpoint, metrics, status: 422, lookups: audit, bodyDigest: bodyDigest() });
    }
    throw error;
  }
  const columns = await replyColumns(prepared, first);

  const lines = (batch: LookedUp[], error?: string) => csvLines(header, columns, batch, error);

  // Usage is recorded however the stream ends, for the rows looked up so far: a client that hangs up after its
  // rows, or a failure half way, is still charged for what was served. Only a clean end waits for it, and a failed
  // write then cuts the reply short.
  const disposition = `attachment; filename="${endpoint}-${request.id}.csv"`;
  // Kept for an idempotent replay while it fits; past the limit only the fact that it was served is kept.
  let kept: string[] | null = idempotent ? [] : null;
  let keptBytes = 0;
  function* keep(text: string): Generator<string> {
    if (kept) {
      keptBytes += Buffer.byteLength(text);
      if (keptBytes > IDEMPOTENCY.maxStoredBytes) kept = null;
      else kept.push(text);
    }
    yield text;
  }

  let drained = false;
  /** The database went away mid-stream: the reply ends early, its usage written once the database answers. */
  let stopped = false;
  async function* produce(): AsyncGenerator<string> {
    let complete = false;
    try {
      yield* keep(headerLine([...header.names, ...columns, ERROR_COLUMN]));
      yield* keep(lines(first));
      let failed: string | null = null;
      for (;;) {
        if (deps.drain.draining) {
          const next = await records.next();
          if (!next.done) {
            drained = true;
            const error = problem(next.value, STREAM_MESSAGES.drained);
            yield lines([{ row: { record: next.value, error }, identities: [] }]);
          }
          break;
        }
        const rows = await readBatch(records, header, endpoint);
        if (rows.length === 0) break;
        if (failed) {
          // The template failed: the rest is marked, not looked up, so the reply stays row for row with the input.
          yield* keep(
            lines(
              rows.map((row) => ({ row, identities: [] })),
              failed,
            ),
          );
          continue;
        }
        let found: Awaited<ReturnType<typeof lookUp>>;
        try {
          found = await lookUp(deps, prepared, rows, metrics, audit);
        } catch (error) {
          if (!(error instanceof Unprocessable || error instanceof TemplateError)) {
            // Anything but the database away is a fault of ours: thrown, not dressed as a database outage.
            if (!databaseFault(error)) throw error;
            // The database away: what was served stays served and is metered below; the reply ends with the row
            // to send again from (issue 28, finding 5).
            request.log.warn({ code: (error as { code?: unknown }).code }, 'lookup stream stopped');
            drained = true;
            stopped = true;
            yield lines([
              {
                row: { record: rows[0]!.record, error: problem(rows[0]!.record, STREAM_MESSAGES.failed) },
                identities: [],
              },
            ]);
            break;
          }
          failed = error.message;
          yield* keep(
            lines(
              rows.map((row) => ({ row, identities: [] })),
              failed,
            ),
          );
          continue;
        }
        yield* keep(lines(found));
        if (caller.mode === 'test')
          audit.splice(0); // the sandbox keeps no audit trail (service.ts, meter)
        else if (audit.length >= AUDIT_HELD) {
          try {
            await writeAuditApart(deps.database, auditCall, audit);
            audit.splice(0);
          } catch (error) {
            if (!databaseFault(error)) throw error;
            // Kept: the rows go with the usage row, written (and retried) as the stream ends.
            request.log.warn({ code: (error as { code?: unknown }).code }, 'lookup stream stopped');
            stopped = true;
            const next = await records.next();
            if (!next.done) {
              drained = true;
              yield lines([
                { row: { record: next.value, error: problem(next.value, STREAM_MESSAGES.failed) }, identities: [] },
              ]);
            }
            break;
          }
        }
      }
      complete = true;
    } finally {
      metrics.milliseconds = Math.round(reply.elapsedTime);
      // Rows already sent must be billed: the write is retried under the stream's id for longer than a call's.
      const call = {
        caller,
        endpoint,
        metrics,
        lookups: audit,
        bodyDigest: bodyDigest(),
        resolveMs: stopped ? STOPPED_RESOLVE_MS : STREAM_RESOLVE_MS,
      };
      // A stream is answered before it is metered: under an id used already for another request it is billed under
      // an id of its own, never free (decision 0046).
      const usage = meter(deps, request, call).catch((error: unknown) => {
        if (!(error instanceof RequestIdReused)) throw error;
        return meter(deps, request, { ...call, requestId: `${request.id}~${randomUUID()}` });
      });
      if (stopped) {
        // The database is away: the reply ends now, its last row saying where to send again from, and the usage of
        // what was served is written in the background as soon as the database answers (issue 28, finding 5).
        const written = usage.catch((error: unknown) =>
          request.log.error(
            { code: (error as { code?: unknown }).code, inputs: metrics.inputs },
            'usage of a stopped stream could not be recorded',
          ),
        );
        // A stop of the server waits for it; what it cannot wait for is logged by request id, to be billed by hand.
        deps.drain.keep(written, { requestId: request.id, inputs: metrics.inputs, identities: metrics.identities });
        if (idempotent) void deps.idempotency.abandon(idempotent.claim).catch(() => {});
      } else if (complete) {
        await usage.catch(async (error) => {
          if (idempotent) await deps.idempotency.abandon(idempotent.claim);
          throw error;
        });
        // A drained stream is partial: its key is let go, so the rest can be sent again under it.
        if (idempotent && drained) await deps.idempotency.abandon(idempotent.claim);
        else if (idempotent) {
          await deps.idempotency.finish(idempotent.claim, {
            hash: idempotent.hasher.digest('hex'),
            status: 200,
            contentType: CSV_TYPE,
            disposition,
            body: kept ? Buffer.from(kept.join('')) : null,
          });
        }
      } else {
        await usage.catch(() => {});
        if (idempotent) await deps.idempotency.abandon(idempotent.claim);
      }
    }
  }

  reply.header('content-disposition', disposition);
  reply.type(CSV_TYPE);
  // A stream ended by a drain leaves the rest of its body unread: the connection closes (a moment after the reply's
  // last bytes, so the client reads them) rather than keep the process waiting for an upload nobody will read.
  reply.raw.on('finish', () => {
    if (!drained) return;
    request.raw.socket?.end();
    setTimeout(() => request.raw.destroy(), 1000).unref();
  });
  return reply.send(Readable.from(produce()));
}
