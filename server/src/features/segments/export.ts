/**
 * A segment's members as CSV through any template the caller may use, in constant memory: member ids are read a
 * batch at a time by keyset (id order), their lookup records loaded (suppressed people and e-mails and phones left
 * out, record types the caller may not see emptied), shaped by the template and written; the next batch is read
 * only when the client has taken the last (a pull stream). The export is metered like a lookup, per identity
 * returned, at the organization's contract prices (usage path /segments), however the stream ends.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { SEGMENT_LIMITS, SEGMENT_USAGE_PATH, type Segment } from '@tessera/common/segments';
import type { CallMetrics } from '@tessera/common/usage';
import { emptyMetrics } from '@tessera/common/usage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import { databaseFault } from '../../db/faults';
import { BadRequest, NotFound, Unavailable, Unprocessable } from '../../http/errors';
import type { Billing, Terms } from '../contracts/billing';
import { costMicros } from '../contracts/pricing';
import type { LookupCaller } from '../identities/caller';
import { csvLine, flatten, headerLine, sampleColumns, unionColumns } from '../identities/csv-output';
import type { Match } from '../identities/engine';
import { countInput } from '../identities/metrics';
import { visibleTypes } from '../identities/record-sql';
import { loadRecords } from '../identities/search';
import { keyedFingerprint } from '../identities/service';
import type { ValueHasher } from '../lookup-audit/hmac';
import { fullAllowance, TemplateError } from '../templates/evaluate';
import {
  DEFAULT_TEMPLATE_ID,
  deletedTemplate,
  type ResolvedTemplate,
  TEMPLATE_MESSAGES,
  type TemplateStore,
} from '../templates/store';
import { type Metering, RequestIdReused, recordResolving } from '../usage/metering';
import { auditMembers } from './audit';
import { memberIds } from './repo';

export interface ExportDeps {
  database: Database;
  metering: Metering;
  billing: Billing;
  templates: TemplateStore;
  /** The lookup audit trail's keyed hash: every batch handed out is on the trail (issue 28, finding 7). */
  auditHasher: () => Promise<ValueHasher>;
}

const CSV_TYPE = 'text/csv; charset=utf-8';
/** How long an export's usage write is retried while the database is away (its rows have been sent). */
const EXPORT_RESOLVE_MS = 30_000;
export const USAGE_UNAVAILABLE = 'Usage could not be recorded, so the export was not charged. Please retry.';

async function resolveTemplate(deps: ExportDeps, id: number, caller: LookupCaller): Promise<ResolvedTemplate> {
  let template: ResolvedTemplate | null;
  try {
    template = await deps.templates.resolve(id, caller);
  } catch (error) {
    if (error instanceof TemplateError) throw new Unprocessable(error.message);
    throw error;
  }
  if (template) return template;
  const gone = await deletedTemplate(deps.database, id, caller);
  if (gone) throw new NotFound(TEMPLATE_MESSAGES.deleted(gone));
  const message = TEMPLATE_MESSAGES.unknown(id);
  throw new BadRequest(message, [{ path: 'querystring.template', message }]);
}

/** A member as the lookup engine hands records to templates and metrics. */
const asMatch = (record: Match['record']): Match => ({ record, score: 100, matchedOn: [], explain: { keys: [] } });

/** The template's fields of each record; a template failure mid-stream ends the export. */
async function shape(template: ResolvedTemplate, records: Match['record'][]): Promise<Record<string, unknown>[]> {
  if (template.compiled.full) return records;
  try {
    return await template.compiled.applyAll(records, fullAllowance());
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    throw new Unprocessable(TEMPLATE_MESSAGES.failed(template, error.message));
  }
}

/** One export counts as one input: what it costs is per identity (and per priced record group) returned. */
function finish(metrics: CallMetrics): CallMetrics {
  metrics.inputs = 1;
  metrics.inputsWithIdentities = metrics.identities > 0 ? 1 : 0;
  metrics.bestMatchScores = 0;
  return metrics;
}

export async function streamSegmentExport(
  deps: ExportDeps,
  segment: Segment,
  caller: LookupCaller,
  templateId: number | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const terms: Terms | null = await deps.billing.admit(caller);
  const template = await resolveTemplate(deps, templateId ?? DEFAULT_TEMPLATE_ID, caller);
  const types = visibleTypes(caller.allowedRecordTypes);
  const metrics = emptyMetrics();

  const audited = {
    database: deps.database,
    auditHasher: deps.auditHasher,
    request,
    userId: caller.userId,
    organizationId: caller.organizationId,
    path: SEGMENT_USAGE_PATH,
  };
  let batches = 0;
  async function batchAfter(after: number) {
    const ids = await memberIds(deps.database, segment.filters, after, SEGMENT_LIMITS.exportBatch);
    const records = await loadRecords(deps.database, ids, types);
    // In id order; a member suppressed since the ids were read is left out.
    const found = ids.map((id) => records.get(id)).filter((r) => r !== undefined);
    // Counted before the template runs: a failure on these records is theirs to tell, so it is charged as served.
    countInput(metrics, found.map(asMatch));
    // On the trail before any of it is sent (or handed to a template that may fail on it).
    await auditMembers(
      audited,
      batches++,
      { kind: 'segment', text: String(segment.id) },
      found.map((r) => r.id),
    );
    const rows = (await shape(template, found)).map((fields) => flatten(fields));
    return { last: ids.at(-1), rows };
  }

  // The first batch before the reply starts: a template that fails on it is a plain 422, metered as served.
  let first: Awaited<ReturnType<typeof batchAfter>>;
  try {
    first = await batchAfter(0);
  } catch (error) {
    if (error instanceof Unprocessable) await meter(422);
    throw error;
  }
  const columns = unionColumns(await sampleColumns(template.compiled), first.rows);
  const lines = (rows: Map<string, string>[]) =>
    rows.map((row) => csvLine(columns.map((c) => row.get(c) ?? ''))).join('');

  async function meter(status = 200): Promise<void> {
    finish(metrics);
    metrics.milliseconds = Math.round(reply.elapsedTime);
    const cost = terms ? costMicros(terms, metrics) : 0;
    try {
      // What was sent must be billed: retried while the database is away, under the export's request id.
      const event = {
        requestId: String(request.id),
        userId: caller.userId,
        organizationId: caller.organizationId,
        keyId: null,
        method: 'GET',
        path: SEGMENT_USAGE_PATH,
        status,
        metrics,
        costMicros: cost,
        // The export's fingerprint, so a reused id is told from a retry (decision 0046).
        requestHash: await keyedFingerprint(deps, request, caller),
      };
      const until = Date.now() + EXPORT_RESOLVE_MS;
      await recordResolving(deps.metering, event, until).catch((error: unknown) => {
        // Sent already under an id used for another request: billed under an id of its own, never free.
        if (!(error instanceof RequestIdReused)) throw error;
        return recordResolving(deps.metering, { ...event, requestId: `${request.id}~${randomUUID()}` }, until);
      });
      deps.billing.charged(caller.organizationId, cost, terms);
    } catch (error) {
      if (!databaseFault(error)) request.log.error({ err: error }, 'segment export usage could not be recorded');
      throw new Unavailable(USAGE_UNAVAILABLE, error);
    }
  }

  async function* produce(): AsyncGenerator<string> {
    let complete = false;
    try {
      yield headerLine(columns);
      if (first.rows.length > 0) yield lines(first.rows);
      let last = first.last;
      while (last !== undefined) {
        const next = await batchAfter(last);
        if (next.rows.length > 0) yield lines(next.rows);
        last = next.last;
      }
      complete = true;
    } finally {
      // Charged for what was served however the stream ends; only a clean end waits, and a failed write then
      // cuts the reply short so it cannot be taken for complete.
      const usage = meter();
      if (complete) await usage;
      else await usage.catch(() => {});
    }
  }

  reply.header('content-disposition', `attachment; filename="segment-${segment.id}.csv"`);
  reply.type(CSV_TYPE);
  return reply.send(Readable.from(produce()));
}
