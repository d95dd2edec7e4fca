/**
 * CSV records read from a stream as it arrives (a PUT lookup's body), one at a time, never the whole body:
 * RFC 4180 fields, quoted fields may run over line breaks (up to a limit), CRLF or LF line ends.
 */
import { splitCsv } from '../people/import/csv-fields';

export type CsvRecord = { line: number; fields: string[]; error?: undefined } | { line: number; error: string };

/** Longest a quoted field may run on over line breaks before the record counts as broken. */
const MAX_RECORD_LINES = 100;
/** Longest one line may be; a longer one is refused rather than buffered without end. */
export const MAX_LINE_BYTES = 1 << 20;

export class CsvLineTooLong extends Error {}

async function* lines(source: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  let rest: Buffer | null = null;
  for await (const piece of source) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    const buffer: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let nl = buffer.indexOf(10, start); nl !== -1; nl = buffer.indexOf(10, start)) {
      const end = nl > start && buffer[nl - 1] === 13 ? nl - 1 : nl;
      yield buffer.toString('utf8', start, end);
      start = nl + 1;
    }
    rest = start < buffer.length ? buffer.subarray(start) : null;
    if (rest && rest.length > MAX_LINE_BYTES)
      throw new CsvLineTooLong(`A line is longer than ${MAX_LINE_BYTES} bytes.`);
  }
  if (rest && rest.length > 0) yield rest.toString('utf8');
}

/** Blank lines are skipped; a byte-order mark at the start is dropped. */
export async function* csvRecords(source: AsyncIterable<Buffer | string>): AsyncGenerator<CsvRecord> {
  let pending: { text: string; line: number; lines: number } | null = null;
  let n = 0;
  for await (let text of lines(source)) {
    n++;
    if (n === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const record: { text: string; line: number; lines: number } = pending
      ? { text: `${pending.text}\n${text}`, line: pending.line, lines: pending.lines + 1 }
      : { text, line: n, lines: 1 };
    pending = null;
    if (record.text.trim() === '') continue;
    const fields = splitCsv(record.text);
    if (fields) yield { line: record.line, fields };
    else if (record.lines < MAX_RECORD_LINES) pending = record;
    else yield { line: record.line, error: 'A quoted field is never closed.' };
  }
  if (pending) yield { line: pending.line, error: 'A quoted field is never closed.' };
}
