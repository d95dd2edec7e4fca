/**
 * One identity as the API returns it: its score and what it matched on (and, when asked, why), then the fields
 * the template makes of its record. Template time is also capped per request, so many records cannot add up to
 * a long stall.
 */
import { TemplateError } from '../templates/evaluate';
import type { ResolvedTemplate } from '../templates/store';
import { TEMPLATE_MESSAGES } from '../templates/store';
import type { Match } from './engine';
import { createYielder } from './yield';

/** Template time one request (or one batch of a streamed request) may spend in all. */
export const TEMPLATE_BUDGET_MS = 10_000;

const OURS = new Set(['score', 'matchedOn', 'explain']);

export interface Shaper {
  shape(match: Match): Promise<Record<string, unknown>>;
}

export function createShaper(template: ResolvedTemplate, explain: boolean): Shaper {
  let spent = 0;
  const pause = createYielder();
  return {
    async shape(match) {
      await pause();
      const started = performance.now();
      let fields: Record<string, unknown>;
      try {
        fields = await template.compiled.apply(match.record);
      } catch (error) {
        const reason = error instanceof TemplateError ? error.message : String(error);
        throw new TemplateError(TEMPLATE_MESSAGES.failed(template, reason));
      }
      spent += performance.now() - started;
      if (spent > TEMPLATE_BUDGET_MS) {
        throw new TemplateError(
          TEMPLATE_MESSAGES.failed(template, `it took more than ${TEMPLATE_BUDGET_MS} ms for this request in all.`),
        );
      }
      const out: Record<string, unknown> = { score: match.score, matchedOn: match.matchedOn };
      if (explain) out.explain = match.explain;
      for (const [key, value] of Object.entries(fields)) if (!OURS.has(key)) out[key] = value;
      return out;
    },
  };
}
