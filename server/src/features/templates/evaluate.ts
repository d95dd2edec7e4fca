/**
 * Templates: a JSONata expression applied to identity records. Compiling (and so checking) one happens here; applying
 * it happens in the sandbox (sandbox.ts, decision 0018), time-boxed, depth-limited, heap-limited and size-capped, so a
 * customer's template cannot hold or exhaust a server process. Every failure is a TemplateError the API answers with
 * 422; the texts of evaluation failures are made in the sandbox's process (sandbox-child.mjs).
 */
import jsonata from 'jsonata';
import type { TemplateSandbox } from './sandbox';

export const TEMPLATE_LIMITS = {
  /** Per record: the longest one evaluation may run (JSONata's own guard), and how deeply it may nest. */
  timeoutMs: 500,
  maxDepth: 200,
  /** Longest an expression may be. */
  maxLength: 20_000,
  /**
   * Per record, the hard limit: past it the process is killed. JSONata checks its timeout only between steps, so a
   * single native call (a backtracking regular expression in $match, $replace, $split or $contains) runs on until then.
   */
  hardRecordMs: 1500,
  /** Template time one request (or one streamed batch of rows) may spend in all. */
  requestBudgetMs: 10_000,
  /** Heap (V8 old generation) of each sandbox process. */
  heapMb: 64,
  /** One identity's template output as JSON: as much as a CSV row may hold (docs/lookups.md). */
  maxIdentityBytes: 64 * 1024,
  /** A request's (or streamed batch's) template output as JSON, all identities together. */
  maxReplyBytes: 8 * 1024 * 1024,
  /** Records sent to the sandbox in one message: one for most calls; a big one's turns alternate with others'. */
  recordsPerJob: 250,
} as const;

export class TemplateError extends Error {
  constructor(
    message: string,
    readonly position?: number,
    /** Where the failing token starts (0-based), for a compile error. */
    readonly start?: number,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** What a request may still spend on its template: milliseconds of evaluation and bytes of output. */
export interface Allowance {
  ms: number;
  bytes: number;
}

export const fullAllowance = (): Allowance => ({
  ms: TEMPLATE_LIMITS.requestBudgetMs,
  bytes: TEMPLATE_LIMITS.maxReplyBytes,
});

export interface CompiledTemplate {
  /** The template `$` (Full): every record as it is, with no evaluation and no sandbox. */
  readonly full: boolean;
  /**
   * Applies the template to each record, in order: the objects they produce, which become the identities' fields.
   * The first record that fails fails them all (a TemplateError). What it spends is taken from `allowance`.
   */
  applyAll(
    records: readonly Record<string, unknown>[],
    allowance?: Allowance,
    options?: ApplyOptions,
  ): Promise<Record<string, unknown>[]>;
  /** Applies the template to one record. */
  apply(record: Record<string, unknown>, options?: ApplyOptions): Promise<Record<string, unknown>>;
}

export interface ApplyOptions {
  /**
   * Tell a failure in full (JSONata's code, message and position): only for records that hold no one, as the
   * synthetic sample. On real records a failure is a fixed sentence per class of error (issue 28, finding 1).
   */
  detail?: boolean;
  /** Whose turn the sandbox's jobs take (owner.ts); a store's resolved template sets it for its caller. */
  owner?: string;
}

interface JsonataFailure {
  code?: string;
  message?: string;
  position?: number;
  token?: unknown;
}

/** A compile error, in words safe to show: it quotes only the expression. */
function describe(error: unknown): TemplateError {
  const e = (error ?? {}) as JsonataFailure;
  const at = typeof e.position === 'number' ? ` (at character ${e.position})` : '';
  // JSONata's position is just past the failing token; at the end of the expression it is the length.
  const length = typeof e.token === 'string' && e.token !== '(end)' ? e.token.length : e.token === '(end)' ? 0 : 1;
  const start = typeof e.position === 'number' ? Math.max(0, e.position - length) : undefined;
  return new TemplateError(`${e.code ? `${e.code}: ` : ''}${e.message ?? 'it failed.'}${at}`, e.position, start);
}

/** The identity template `$`: the record as it is, with no evaluation at all. */
const FULL: CompiledTemplate = {
  full: true,
  applyAll: async (records) => [...records],
  apply: async (record) => record,
};

/**
 * Checks an expression and makes it a template applied in `sandbox`. Without one it can be checked (a TemplateError
 * if it does not compile) but not applied.
 */
export function compileTemplate(expression: string, sandbox?: TemplateSandbox): CompiledTemplate {
  if (expression.length > TEMPLATE_LIMITS.maxLength) {
    throw new TemplateError(`it is longer than ${TEMPLATE_LIMITS.maxLength} characters.`);
  }
  if (expression.trim() === '$') return FULL;
  try {
    jsonata(expression);
  } catch (error) {
    throw describe(error);
  }
  async function applyAll(
    records: readonly Record<string, unknown>[],
    allowance = fullAllowance(),
    options: ApplyOptions = {},
  ) {
    if (!sandbox) throw new Error('This template was compiled to be checked, not applied.');
    // Admitted or refused (429) before any record is sent, found or not, and once for all its batches: a refusal
    // tells only how many of the owner's calls wait, never whether or how many records this call found.
    sandbox.admit(options.owner);
    const outputs: Record<string, unknown>[] = [];
    for (let start = 0; start < records.length; start += TEMPLATE_LIMITS.recordsPerJob) {
      const result = await sandbox.run({
        expression,
        records: records.slice(start, start + TEMPLATE_LIMITS.recordsPerJob),
        limits: {
          timeoutMs: TEMPLATE_LIMITS.timeoutMs,
          maxDepth: TEMPLATE_LIMITS.maxDepth,
          maxIdentityBytes: TEMPLATE_LIMITS.maxIdentityBytes,
          maxReplyBytes: TEMPLATE_LIMITS.maxReplyBytes,
          requestBudgetMs: TEMPLATE_LIMITS.requestBudgetMs,
          msLeft: allowance.ms,
          bytesLeft: allowance.bytes,
        },
        detail: options.detail === true,
        owner: options.owner,
        admitted: true,
      });
      allowance.ms -= result.ms;
      allowance.bytes -= result.bytes;
      for (const output of result.outputs) outputs.push(output);
    }
    return outputs;
  }
  return {
    full: false,
    applyAll,
    apply: async (record, options) => (await applyAll([record], fullAllowance(), options))[0]!,
  };
}
