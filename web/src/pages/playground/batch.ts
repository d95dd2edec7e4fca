/**
 * The POST batch editor's text as the API's `inputs` (docs/lookups.md): one input per line (the endpoint's key
 * as a plain string; for byAny and byPii `name=value` pairs are not offered, so CSV with a header row is the way
 * to give several inputs), or CSV pasted with a header row naming input columns.
 */
import { type InputName, LOOKUP_LIMITS, type LookupEndpoint, plainKeyOf } from '@tessera/common/lookups';
import { parseCsv } from './csv';
import { inputsOf } from './playground-state';
import { inputError } from './validate';

export type BatchInput = string | Partial<Record<InputName, string>>;

export interface ParsedBatch {
  inputs: BatchInput[];
  /** The first problem, led by its line, or null. */
  problem: string | null;
}

export const BATCH_MESSAGES = {
  empty: 'Please give at least one input: one per line, or CSV with a header row.',
  tooMany: `A POST takes at most ${LOOKUP_LIMITS.maxInputs.toLocaleString('en-US')} inputs; please split the batch.`,
  header: (names: readonly string[]) =>
    `The first line must be a CSV header naming inputs of this endpoint (${names.join(', ')}).`,
} as const;

export function parseBatch(endpoint: LookupEndpoint, text: string): ParsedBatch {
  const names = inputsOf(endpoint);
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) return { inputs: [], problem: BATCH_MESSAGES.empty };
  const key = plainKeyOf(endpoint);
  const first = parseCsv(lines[0]!).rows[0] ?? [];
  const isHeader = first.length > 0 && first.every((c) => (names as readonly string[]).includes(c.trim()));
  const inputs: BatchInput[] = [];
  if (!isHeader) {
    if (!key) return { inputs: [], problem: BATCH_MESSAGES.header(names) };
    for (const [i, line] of lines.entries()) {
      const error = inputError(key, line);
      if (error) return { inputs: [], problem: `line ${i + 1}: ${error}` };
      inputs.push(line.trim());
    }
  } else {
    const header = first.map((c) => c.trim() as InputName);
    const { rows } = parseCsv(lines.slice(1).join('\n'));
    for (const [i, row] of rows.entries()) {
      const input: Partial<Record<InputName, string>> = {};
      for (const [j, name] of header.entries()) {
        const value = row[j]?.trim() ?? '';
        if (value === '') continue;
        const error = inputError(name, value);
        if (error) return { inputs: [], problem: `line ${i + 2}: ${name}: ${error}` };
        input[name] = value;
      }
      inputs.push(input);
    }
    if (inputs.length === 0) return { inputs, problem: BATCH_MESSAGES.empty };
  }
  if (inputs.length > LOOKUP_LIMITS.maxInputs) return { inputs: [], problem: BATCH_MESSAGES.tooMany };
  return { inputs, problem: null };
}
