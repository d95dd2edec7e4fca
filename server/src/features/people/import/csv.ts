/** CSV source: a header row naming record fields (csv-mapping.ts), then one person per record. */

import { splitCsv } from './csv-fields';
import { CsvHeaderError, csvColumns, csvRecord } from './csv-mapping';
import { readLines } from './lines';
import { parseRecord } from './parse-record';
import type { ParsedRow } from './source';

/** Longest a quoted field may run on over line breaks before the row counts as broken. */
const MAX_RECORD_LINES = 100;

export async function* readCsv(file: string): AsyncGenerator<ParsedRow> {
  let columns: ReturnType<typeof csvColumns> | null = null;
  let pending: { text: string; line: number; lines: number } | null = null;
  let read = 0;
  for await (const { text, line, bytes } of readLines(file)) {
    read = bytes;
    const record: { text: string; line: number; lines: number } = pending
      ? { text: `${pending.text}\n${text}`, line: pending.line, lines: pending.lines + 1 }
      : { text, line, lines: 1 };
    pending = null;
    if (record.text.trim() === '') continue;
    const fields = splitCsv(record.text);
    if (!fields) {
      if (record.lines < MAX_RECORD_LINES) {
        pending = record;
        continue;
      }
      yield { file, line: record.line, bytes, reason: 'quoted field never closed' };
      continue;
    }
    if (!columns) {
      try {
        columns = csvColumns(fields);
      } catch (err) {
        if (!(err instanceof CsvHeaderError)) throw err;
        yield { file, line: record.line, bytes, reason: `header: ${err.message}; file skipped` };
        return;
      }
      continue;
    }
    if (fields.length !== columns.length) {
      yield { file, line: record.line, bytes, reason: `${fields.length} fields; the header has ${columns.length}` };
      continue;
    }
    yield { file, line: record.line, bytes, ...parseRecord(csvRecord(columns, fields)) };
  }
  if (pending) yield { file, line: pending.line, bytes: read, reason: 'quoted field never closed' };
}
