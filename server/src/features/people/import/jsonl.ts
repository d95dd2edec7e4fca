/** JSONL source: one identity record (docs/identity-record.md) per line; blank lines are skipped. */
import { readLines } from './lines';
import { parseRecord } from './parse-record';
import type { ParsedRow } from './source';

export async function* readJsonl(file: string): AsyncGenerator<ParsedRow> {
  for await (const { text, line, bytes } of readLines(file)) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      yield { file, line, bytes, reason: `not JSON: ${(err as Error).message}` };
      continue;
    }
    yield { file, line, bytes, ...parseRecord(value) };
  }
}
