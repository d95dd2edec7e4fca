/**
 * CSV replies, read as they arrive: a PUT upload's (always CSV), or a GET or POST with `format: 'csv'`. The server
 * writes RFC 4180 (csv-stringify: CRLF after each row, a field quoted when it holds a comma, a quote, CR or LF) and
 * guards cells against spreadsheet formulas with a leading apostrophe (docs/lookups.md, "Formula guard").
 */
import { TesseraError } from './errors.js';
import type { ReplyMeta } from './types.js';

/** How parsed cells are given. */
export interface CellOptions {
  /**
   * Drop the apostrophe the server puts before a cell beginning with `= + - @`, a tab or a CR (its formula guard),
   * giving the value as it was (default true). false gives cells exactly as sent.
   */
  unguard?: boolean;
}

const GUARDED = /^'[=+\-@\t\r]/;

/** How a CsvReply tells the client it is done with the call. */
export interface CsvReplyHooks {
  /** The reply has been read or given up: the call's timeout and signal are released. */
  done: () => void;
  /** Stops the call: the reply and, for an upload, the sending. */
  stop: () => void;
  /** Why the call was aborted, if it was (a TesseraError with `aborted`). */
  abortReason: () => unknown;
}

/** A cell without the server's formula guard. */
export function unguardCell(cell: string): string {
  return GUARDED.test(cell) ? cell.slice(1) : cell;
}

/** The cells of one CSV record's text (RFC 4180; lenient with a stray quote, which is kept). */
export function parseCsvRecord(record: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (record[i] === '"') {
      let cell = '';
      i += 1;
      for (;;) {
        const quote = record.indexOf('"', i);
        if (quote < 0) {
          cell += record.slice(i);
          i = record.length;
          break;
        }
        cell += record.slice(i, quote);
        if (record[quote + 1] === '"') {
          cell += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      const comma = record.indexOf(',', i);
      // Anything between the closing quote and the comma is kept, as a lenient reader would.
      cell += record.slice(i, comma < 0 ? record.length : comma);
      cells.push(cell);
      if (comma < 0) return cells;
      i = comma + 1;
    } else {
      const comma = record.indexOf(',', i);
      cells.push(record.slice(i, comma < 0 ? record.length : comma));
      if (comma < 0) return cells;
      i = comma + 1;
    }
  }
}

/** Splits text chunks into CSV records' texts: a record ends at LF (or CRLF) outside quotes. */
export async function* csvRecords(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  let scanned = 0;
  let quoted = false;
  for await (const chunk of chunks) {
    buffer += chunk;
    let start = 0;
    for (let i = scanned; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (c === 34) quoted = !quoted;
      else if (c === 10 && !quoted) {
        const end = i > start && buffer.charCodeAt(i - 1) === 13 ? i - 1 : i;
        yield buffer.slice(start, end);
        start = i + 1;
      }
    }
    buffer = buffer.slice(start);
    scanned = buffer.length;
  }
  if (buffer !== '') yield buffer.endsWith('\r') ? buffer.slice(0, -1) : buffer;
}

/** Names for a header row where a name may repeat: the second `score` becomes `score#2`. */
function uniqueNames(header: string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}#${n}`;
  });
}

/**
 * A CSV reply, streamed: iterate it (`for await (const row of reply)`) for each row's cells, header first; or
 * `records()` for objects keyed by the header, `lines()` for each record's raw text, `text()` for all of it. A reply
 * can be read once. Reading stops the upload's reply early when you break out of the loop.
 */
export class CsvReply implements AsyncIterable<string[]> {
  readonly meta: ReplyMeta;
  readonly response: Response;
  private used = false;
  private readonly hooks: CsvReplyHooks;

  /** Made by the client for each CSV reply. */
  constructor(response: Response, meta: ReplyMeta, hooks: CsvReplyHooks) {
    this.response = response;
    this.meta = meta;
    this.hooks = hooks;
  }

  /** The reply's text as it arrives, decoded from UTF-8 (a byte-order mark dropped). */
  async *chunks(): AsyncGenerator<string> {
    if (this.used) throw new TypeError('This CSV reply has been read already.');
    this.used = true;
    const body = this.response.body;
    if (!body) {
      this.hooks.done();
      return;
    }
    const reader = body.getReader();
    const decoder = new TextDecoder('utf-8');
    let finished = false;
    try {
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (cause) {
          throw this.readError(cause);
        }
        if (next.done) break;
        const text = decoder.decode(next.value, { stream: true });
        if (text) yield text;
      }
      finished = true;
      const rest = decoder.decode();
      if (rest) yield rest;
    } finally {
      if (!finished) {
        // Left early (a break, an error): stop the reply, and an upload still being sent.
        await reader.cancel().catch(() => undefined);
        this.hooks.stop();
      }
      reader.releaseLock();
      this.hooks.done();
    }
  }

  /** Each record's text without its line end (a quoted cell may hold line breaks). */
  lines(): AsyncGenerator<string> {
    return csvRecords(this.chunks());
  }

  /** Each row's cells, the header row first. */
  async *rows(options: CellOptions = {}): AsyncGenerator<string[]> {
    const unguard = options.unguard ?? true;
    for await (const line of this.lines()) {
      const cells = parseCsvRecord(line);
      yield unguard ? cells.map(unguardCell) : cells;
    }
  }

  /** Each row after the header as an object keyed by the header (a repeated name gets `#2`, `#3`, ...). */
  async *records(options: CellOptions = {}): AsyncGenerator<Record<string, string>> {
    let names: string[] | undefined;
    for await (const cells of this.rows(options)) {
      if (!names) {
        names = uniqueNames(cells);
        continue;
      }
      const record: Record<string, string> = {};
      names.forEach((name, i) => {
        record[name] = cells[i] ?? '';
      });
      yield record;
    }
  }

  /** The whole reply as text. */
  async text(): Promise<string> {
    let text = '';
    for await (const chunk of this.chunks()) text += chunk;
    return text;
  }

  /** Stops reading the reply (and, for an upload, sending). */
  async cancel(): Promise<void> {
    this.used = true;
    await this.response.body?.cancel().catch(() => undefined);
    this.hooks.stop();
    this.hooks.done();
  }

  [Symbol.asyncIterator](): AsyncIterator<string[]> {
    return this.rows()[Symbol.asyncIterator]();
  }

  private readError(cause: unknown): TesseraError {
    const reason = this.hooks.abortReason();
    if (reason instanceof TesseraError) return reason;
    return new TesseraError({
      status: this.meta.status,
      code: 'network_error',
      message: `The CSV reply was cut short: ${cause instanceof Error ? cause.message : String(cause)}`,
      requestId: this.meta.requestId,
      headers: this.meta.headers,
      attempts: this.meta.attempts,
      cause,
    });
  }
}
