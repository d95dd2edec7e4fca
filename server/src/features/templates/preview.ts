/**
 * POST /v2/templates/preview: an unsaved expression rendered through the sandbox with the lookups' limits. The
 * default sample is a synthetic identity (every record group filled, no real person) and costs nothing; a sample
 * naming an identity is looked up as byId, with the caller's record types and contract admission, and is metered
 * and priced as that lookup, under its own path (issue 32: the usage page lists it as a template preview).
 */
import type { TemplatePreview } from '@tessera/common/templates';
import { TEMPLATE_PREVIEW_USAGE_PATH } from '@tessera/common/usage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { Unprocessable } from '../../http/errors';
import { csvLine, flatten, SAMPLE_RECORD, sampleColumns, unionColumns } from '../identities/csv-output';
import type { Match } from '../identities/engine';
import { parseInput } from '../identities/inputs';
import { countResults } from '../identities/metrics';
import { invalid } from '../identities/options';
import { auditOf, identify, type LookupDeps, lookupAndShapeMetered, meter, prepare } from '../identities/service';
import { createShaper } from '../identities/shape';
import { combine, keyEvidence, toScore } from '../scoring/exact';
import { TemplateError } from './evaluate';
import type { previewBody } from './schemas';
import type { ResolvedTemplate, TemplateStore } from './store';

/** What a preview's failures are named as: the template has no id or version yet. */
const PREVIEW = { id: 0, name: 'preview', version: 0, organizationId: null, adminIds: [] } as const;

/**
 * The synthetic identity as a match on its id, scored by the lookups' own code (issue 32): the same 0-100 score a
 * real identity previewed by id gets, not a probability of 1.
 */
function syntheticMatch(today: Date): Match {
  const key = keyEvidence('id', { lastSeen: null }, 1, today);
  return {
    record: SAMPLE_RECORD as unknown as Match['record'],
    score: toScore(combine([key.probability])),
    matchedOn: [key.input],
    explain: { keys: [key] },
  };
}

async function shapeSynthetic(template: ResolvedTemplate): Promise<Record<string, unknown>[]> {
  try {
    return (await createShaper(template, false, { detail: true }).shapeAll([[syntheticMatch(new Date())]]))[0]!;
  } catch (error) {
    if (error instanceof TemplateError) throw new Unprocessable(error.message);
    throw error;
  }
}

async function csvOf(template: ResolvedTemplate, identities: Record<string, unknown>[]): Promise<string> {
  const flat = identities.map((identity) => flatten(identity));
  const columns = unionColumns(['score', 'matchedOn', ...(await sampleColumns(template.compiled))], flat);
  let out = csvLine(columns);
  for (const row of flat) out += csvLine(columns.map((c) => row.get(c) ?? ''));
  return out;
}

export async function renderPreview(
  deps: { store: TemplateStore; lookups: LookupDeps },
  request: FastifyRequest,
  reply: FastifyReply,
  body: z.infer<typeof previewBody>,
): Promise<TemplatePreview> {
  const template: ResolvedTemplate = {
    ...PREVIEW,
    adminIds: [],
    expression: body.expression,
    compiled: deps.store.compile(body.expression),
  };
  let identities: Record<string, unknown>[];
  if (!body.sample) {
    identities = await shapeSynthetic(template);
  } else {
    const { lookups } = deps;
    const caller = await identify(lookups, request, reply);
    const parsed = parseInput('byId', String(body.sample.identityId), 'body.sample.identityId');
    if (parsed.errors) throw invalid(parsed.errors);
    const prepared = { ...(await prepare(lookups, caller, {})), template, shaper: () => createShaper(template, false) };
    const { matches, shaped } = await lookupAndShapeMetered(lookups, request, reply, {
      prepared,
      endpoint: 'byId',
      inputs: [parsed.input],
      path: TEMPLATE_PREVIEW_USAGE_PATH,
    });
    const metrics = countResults(matches);
    metrics.milliseconds = Math.round(reply.elapsedTime);
    const audited = await auditOf(lookups, [parsed.input], matches);
    await meter(lookups, request, {
      caller,
      endpoint: 'byId',
      path: TEMPLATE_PREVIEW_USAGE_PATH,
      metrics,
      lookups: audited,
    });
    identities = shaped[0]!;
  }
  return {
    format: body.format,
    identities,
    csv: body.format === 'csv' ? await csvOf(template, identities) : null,
    metered: body.sample !== undefined,
  };
}
