/**
 * CSV records read from a stream as it arrives (a PUT lookup's body), one at a time, never the whole body, as
 * RFC 4180 has them: fields separated by commas, records by CRLF (or LF), a field quoted to hold commas, quotes
 * (doubled) or line breaks, kept exactly as sent (CRLF inside quotes stays CRLF). A byte-order mark is dropped.
 *
 * Two steps (decision 0025). Framing finds where each record ends: at a line break outside quotes, a quote opening
 * only at the start of a field, so one malformed record cannot swallow the ones after it. Then csv-parse reads the
 * record's fields, strictly: a quote inside an unquoted field (`ab"c`) or text after a closing quote (`"a"b`) makes
 * that record an error, and reading goes on with the next. csv-parse's own streaming parser is not used for the
 * framing because after such an error it loses its place (it reads on from inside the bad record, or stops).
 *
 * A record may be at most 64 KB and run over at most 100 lines: a longer one becomes an error record and reading
 * goes on after it, so memory stays bounded whatever is sent. Line numbers count from 1, the header included.
 */
import { parse } from 'csv-parse/sync';

export type CsvRecord = { line: number; fields: string[]; error?: undefined } | { line: number; error: string };

/** Longest a record may be, over all its lines. */
export const MAX_RECORD_BYTES = 64 * 1024;
/** Most lines a quoted field may run over before the record counts as broken. */
const MAX_RECORD_LINES = 100;

export const CSV_INPUT_MESSAGES = {
  tooLong: `The row is longer than ${MAX_RECORD_BYTES / 1024} KB.`,
  unclosed: 'A quoted field is never closed.',
  closingQuote: 'A quoted field must end at its closing quote: after it comes a comma or the end of the row.',
  openingQuote: 'A quote may only start a field; a field that holds one must be quoted, its quotes doubled ("").',
  malformed: (why: string) => `The row is not valid CSV (${why}).`,
} as const;

/** A line of the body with its line break (LF or CRLF) still on, or the fact that it was too long to keep. */
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
      else yield { text: buffer.toString('utf8', start, nl + 1) };
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

/**
 * Whether a quoted field is still open at the end of `text`, given whether one was open at its start. A quote opens
 * a field only at the field's start (as csv-parse reads it); inside, a doubled quote is one quote.
 */
function quoteOpenAfter(text: string, openBefore: boolean): boolean {
  let open = openBefore;
  let fieldStart = !openBefore;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (open) {
      if (c === 34) {
        if (text.charCodeAt(i + 1) === 34) i++;
        else open = false;
      }
    } else if (c === 34 && fieldStart) {
      open = true;
      fieldStart = false;
    } else fieldStart = c === 44; // a comma starts the next field
  }
  return open;
}

const PARSE = { relax_column_count: true, record_delimiter: '\n', bom: false, skip_empty_lines: false } as const;

/**
 * The record's fields by csv-parse, or what is wrong with it. A record with no quote at all is split at its commas
 * here, as csv-parse would split it: a parser made per record costs about 14 µs, the split under 1.
 */
function fieldsOf(text: string): { fields: string[] } | { error: string } {
  if (!text.includes('"')) return { fields: text.split(',') };
  try {
    const records = parse(text, PARSE) as string[][];
    // Framing ends records only at line breaks outside quotes, so csv-parse sees exactly one.
    if (records.length !== 1) return { error: CSV_INPUT_MESSAGES.malformed(`${records.length} records`) };
    return { fields: records[0]! };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'CSV_INVALID_CLOSING_QUOTE') return { error: CSV_INPUT_MESSAGES.closingQuote };
    if (code === 'INVALID_OPENING_QUOTE') return { error: CSV_INPUT_MESSAGES.openingQuote };
    if (code === 'CSV_QUOTE_NOT_CLOSED') return { error: CSV_INPUT_MESSAGES.unclosed };
    return { error: CSV_INPUT_MESSAGES.malformed((error as Error).message) };
  }
}

/** The record without the line break that ends it. */
const withoutEnd = (text: string) =>
  text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;

/** Blank lines are skipped; a byte-order mark at the start is dropped. Line numbers count from 1, header included. */
export async function* csvRecords(source: AsyncIterable<Buffer | string>): AsyncGenerator<CsvRecord> {
  let pending: { text: string; line: number; lines: number } | null = null;
  /** Lines of a quoted field that ran too long, already reported: skipped until the field closes. */
  let broken: { lines: number } | null = null;
  let n = 0;
  for await (const read of lines(source)) {
    n++;
    if (broken) {
      // Still inside the broken record's quoted field (what the too-long line held is unknown: taken as open).
      broken.lines++;
      if (read.tooLong || (quoteOpenAfter(read.text, true) && broken.lines < MAX_RECORD_LINES)) continue;
      broken = null;
      continue;
    }
    if (read.tooLong) {
      yield { line: pending?.line ?? n, error: CSV_INPUT_MESSAGES.tooLong };
      // Inside a quoted field, the record goes on after the long line: its rest is part of the one reported.
      if (pending) broken = { lines: pending.lines + 1 };
      pending = null;
      continue;
    }
    const text = n === 1 && read.text.charCodeAt(0) === 0xfeff ? read.text.slice(1) : read.text;
    const record: { text: string; line: number; lines: number } = pending
      ? { text: pending.text + text, line: pending.line, lines: pending.lines + 1 }
      : { text, line: n, lines: 1 };
    const open = quoteOpenAfter(text, pending !== null);
    pending = null;
    if (!open) {
      const body = withoutEnd(record.text);
      if (body.trim() === '' && record.lines === 1) continue;
      const read = fieldsOf(body);
      yield 'fields' in read ? { line: record.line, fields: read.fields } : { line: record.line, error: read.error };
    } else if (record.text.length > MAX_RECORD_BYTES) yield { line: record.line, error: CSV_INPUT_MESSAGES.tooLong };
    else if (record.lines < MAX_RECORD_LINES) pending = record;
    else yield { line: record.line, error: CSV_INPUT_MESSAGES.unclosed };
  }
  if (pending) yield { line: pending.line, error: CSV_INPUT_MESSAGES.unclosed };
}
