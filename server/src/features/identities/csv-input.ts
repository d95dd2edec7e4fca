/**
 * CSV records read from a stream as it arrives (a PUT lookup's body), one at a time, never the whole body:
 * RFC 4180 fields, quoted fields may run over line breaks, CRLF or LF line ends. A record may be at most 64 KB:
 * a longer one becomes an error record and reading goes on after it, so memory stays bounded whatever is sent.
 */
import { splitCsv } from '../people/import/csv-fields';

export type CsvRecord = { line: number; fields: string[]; error?: undefined } | { line: number; error: string };

/** Longest a record may be, over all its lines. */
export const MAX_RECORD_BYTES = 64 * 1024;
/** Most lines a quoted field may run over before the record counts as broken. */
const MAX_RECORD_LINES = 100;

export const CSV_INPUT_MESSAGES = {
  tooLong: `The row is longer than ${MAX_RECORD_BYTES / 1024} KB.`,
  unclosed: 'A quoted field is never closed.',
} as const;

type Line = { text: string; tooLong?: undefined } | { tooLong: true };

async function* lines(source: AsyncIterable<Buffer | string>): AsyncGenerator<Line> {
  let rest: Buffer | null = null;
  let skipping = false;
  for await (const piece of source) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    const buffer: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let nl = buffer.indexOf(10, start); nl !== -1; nl = buffer.indexOf(10, start)) {
      if (skipping) skipping = false;
      else if (nl - start > MAX_RECORD_BYTES) yield { tooLong: true };
      else yield { text: buffer.toString('utf8', start, nl > start && buffer[nl - 1] === 13 ? nl - 1 : nl) };
      start = nl + 1;
    }
    rest = start < buffer.length ? buffer.subarray(start) : null;
    if (rest && rest.length > MAX_RECORD_BYTES) {
      // Too long already: say so once, then drop bytes up to the next line end.
      if (!skipping) yield { tooLong: true };
      skipping = true;
      rest = null;
    }
  }
  if (rest && rest.length > 0 && !skipping) yield { text: rest.toString('utf8') };
}

/** Blank lines are skipped; a byte-order mark at the start is dropped. Line numbers count from 1, header included. */
export async function* csvRecords(source: AsyncIterable<Buffer | string>): AsyncGenerator<CsvRecord> {
  let pending: { text: string; line: number; lines: number } | null = null;
  let n = 0;
  for await (const read of lines(source)) {
    n++;
    if (read.tooLong) {
      yield { line: pending?.line ?? n, error: CSV_INPUT_MESSAGES.tooLong };
      pending = null;
      continue;
    }
    const text = n === 1 && read.text.charCodeAt(0) === 0xfeff ? read.text.slice(1) : read.text;
    const record: { text: string; line: number; lines: number } = pending
      ? { text: `${pending.text}\n${text}`, line: pending.line, lines: pending.lines + 1 }
      : { text, line: n, lines: 1 };
    pending = null;
    if (record.text.trim() === '') continue;
    const fields = splitCsv(record.text);
    if (fields) yield { line: record.line, fields };
    else if (record.text.length > MAX_RECORD_BYTES) yield { line: record.line, error: CSV_INPUT_MESSAGES.tooLong };
    else if (record.lines < MAX_RECORD_LINES) pending = record;
    else yield { line: record.line, error: CSV_INPUT_MESSAGES.unclosed };
  }
  if (pending) yield { line: pending.line, error: CSV_INPUT_MESSAGES.unclosed };
}
