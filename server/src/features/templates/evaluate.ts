/**
 * Template evaluation: a JSONata expression applied to one identity record, time-boxed and depth-limited so a
 * customer's template cannot hold a server process. Every failure is a TemplateError the API answers with 422.
 */
import jsonata from 'jsonata';

/** Per record: the longest one evaluation may run, and how deeply it may nest. */
export const TEMPLATE_LIMITS = {
  timeoutMs: 500,
  maxDepth: 200,
  /** Longest an expression may be. */
  maxLength: 20_000,
} as const;

export class TemplateError extends Error {
  constructor(
    message: string,
    readonly position?: number,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

export interface CompiledTemplate {
  /** Applies the template to one record: the object it produces, which becomes the identity's fields. */
  apply(record: Record<string, unknown>): Promise<Record<string, unknown>>;
}

interface JsonataFailure {
  code?: string;
  message?: string;
  position?: number;
  value?: unknown;
  value2?: unknown;
}

export const HIDDEN_VALUE = '(a value from the record)';

/**
 * What went wrong, in words safe to show. A compile error quotes only the expression. An evaluation error may quote
 * the record (`$error($string($))` would hand it out in the 422, unbilled), so the values it names are hidden and a
 * template's own `$error()` text is not repeated.
 */
function describe(error: unknown, evaluating: boolean): TemplateError {
  const e = (error ?? {}) as JsonataFailure;
  if (e.code === 'D1012') return new TemplateError(`it ran longer than ${TEMPLATE_LIMITS.timeoutMs} ms on one record.`);
  if (e.code === 'D1011') return new TemplateError(`it nested deeper than ${TEMPLATE_LIMITS.maxDepth} levels.`);
  const at = typeof e.position === 'number' ? ` (at character ${e.position})` : '';
  let message = e.message ?? 'it failed.';
  if (evaluating) {
    if (e.code === 'D3137') message = 'the template called $error().';
    for (const value of [e.value, e.value2]) {
      if (value === undefined) continue;
      for (const shown of new Set([JSON.stringify(value), String(value)])) {
        if (shown) message = message.split(shown).join(HIDDEN_VALUE);
      }
    }
    if (!e.code) message = 'it failed while evaluating.';
  }
  return new TemplateError(`${e.code ? `${e.code}: ` : ''}${message}${at}`, e.position);
}

const kindOf = (value: unknown) => (value === undefined ? 'nothing' : Array.isArray(value) ? 'an array' : typeof value);

/** The identity template `$`: the record as it is, with no evaluation at all. */
const IDENTITY: CompiledTemplate = { apply: async (record) => record };

export function compileTemplate(expression: string): CompiledTemplate {
  if (expression.length > TEMPLATE_LIMITS.maxLength) {
    throw new TemplateError(`it is longer than ${TEMPLATE_LIMITS.maxLength} characters.`);
  }
  if (expression.trim() === '$') return IDENTITY;
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(expression, {
      timeout: TEMPLATE_LIMITS.timeoutMs,
      stack: TEMPLATE_LIMITS.maxDepth,
    });
  } catch (error) {
    throw describe(error, false);
  }
  return {
    async apply(record) {
      let result: unknown;
      try {
        result = await compiled.evaluate(record);
      } catch (error) {
        throw describe(error, true);
      }
      if (!result || typeof result !== 'object' || Array.isArray(result)) {
        throw new TemplateError(`it must produce an object for each identity; it produced ${kindOf(result)}.`);
      }
      return result as Record<string, unknown>;
    },
  };
}
