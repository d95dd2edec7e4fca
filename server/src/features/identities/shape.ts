/**
 * Identities as the API returns them: each one's score and what it matched on (and, when asked, why), then the
 * fields the template makes of its record. A request's records go to the template sandbox together (a few hundred to
 * a message), and what they may spend is the request's: time and output size are capped per request, so many records
 * cannot add up to a long stall or a huge reply. The Full template takes the records as they are, with no sandbox.
 */
import { type Allowance, type ApplyOptions, fullAllowance, TemplateError } from '../templates/evaluate';
import type { ResolvedTemplate } from '../templates/store';
import { TEMPLATE_MESSAGES } from '../templates/store';
import type { Match } from './engine';

const OURS = new Set(['score', 'matchedOn', 'explain']);

export interface Shaper {
  /** Every match's identity, list by list in order; the first record the template fails on fails them all. */
  shapeAll(lists: readonly (readonly Match[])[]): Promise<Record<string, unknown>[][]>;
  shape(match: Match): Promise<Record<string, unknown>>;
}

/** `options.detail` only for records that hold no one (the synthetic sample): failures are then told in full. */
export function createShaper(template: ResolvedTemplate, explain: boolean, options: ApplyOptions = {}): Shaper {
  const allowance: Allowance = fullAllowance();

  function identity(match: Match, fields: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = { score: match.score, matchedOn: match.matchedOn };
    if (explain) out.explain = match.explain;
    for (const [key, value] of Object.entries(fields)) if (!OURS.has(key)) out[key] = value;
    return out;
  }

  async function shapeAll(lists: readonly (readonly Match[])[]): Promise<Record<string, unknown>[][]> {
    const matches = lists.flat();
    let fields: Record<string, unknown>[];
    if (template.compiled.full) {
      fields = matches.map((m) => m.record);
    } else {
      try {
        fields = await template.compiled.applyAll(
          matches.map((m) => m.record),
          allowance,
          options,
        );
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        throw new TemplateError(TEMPLATE_MESSAGES.failed(template, error.message));
      }
    }
    let i = 0;
    return lists.map((list) => list.map((match) => identity(match, fields[i++]!)));
  }

  return {
    shapeAll,
    shape: async (match) => (await shapeAll([[match]]))[0]![0]!,
  };
}
