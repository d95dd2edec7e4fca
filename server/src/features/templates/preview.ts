/**
 * POST /v2/templates/preview: an unsaved expression rendered through the sandbox with the lookups' limits. The
 * default sample is a synthetic identity (every record group filled, no real person) and costs nothing; a sample
 * naming an identity is looked up as byId, with the caller's record types and contract admission, and is metered
 * and priced as that lookup.
 */
import type { TemplatePreview } from '@tessera/common/templates';
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
import { TemplateError } from './evaluate';
import type { previewBody } from './schemas';
import type { ResolvedTemplate, TemplateStore } from './store';

/** What a preview's failures are named as: the template has no id or version yet. */
const PREVIEW = { id: 0, name: 'preview', version: 0, organizationId: null, adminIds: [] } as const;

const SYNTHETIC: Match = {
  record: SAMPLE_RECORD as unknown as Match['record'],
  score: 1,
  matchedOn: ['id'],
  explain: { keys: [] },
};

async function shapeSynthetic(template: ResolvedTemplate): Promise<Record<string, unknown>[]> {
  try {
    return (await createShaper(template, false, { detail: true }).shapeAll([[SYNTHETIC]]))[0]!;
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
    });
    const metrics = countResults(matches);
    metrics.milliseconds = Math.round(reply.elapsedTime);
    const audited = await auditOf(lookups, [parsed.input], matches);
    await meter(lookups, request, { caller, endpoint: 'byId', metrics, lookups: audited });
    identities = shaped[0]!;
  }
  return {
    format: body.format,
    identities,
    csv: body.format === 'csv' ? await csvOf(template, identities) : null,
    metered: body.sample !== undefined,
  };
}
