/**
 * A bulk job's result, streamed as it is downloaded: CSV (byte for byte what a CSV upload would have answered) or
 * JSON lines (one object a row). Nothing but the piece being read is held in memory, whatever the job's length.
 */
import { type CsvReplyHooks, csvRecords } from './csv.js';
import { TesseraError } from './errors.js';
import type { ReplyMeta } from './types.js';

/** One row of a `jsonl` result. */
export interface JobResultItem {
  /** The row's line in the CSV sent (the header is line 1). */
  line: number;
  /** The row's cells by column, or null for a row that was not valid CSV. */
  input: Record<string, string> | null;
  /**
   * The identities found, each with the CSV result's columns and cells: fields flattened with dots, as text
   * (`{ score: '97', matchedOn: 'email', id: '7', 'emails.address': ... }`).
   */
  identities: Record<string, string>[];
  /** Why the row failed, or null. */
  error: string | null;
}

const FILENAME = /filename="([^"]*)"/;

/**
 * A job's result: iterate it (`for await (const bytes of result)`) or read `chunks()` for its bytes, `lines()` for
 * each record's text, `items()` for a `jsonl` result's rows as objects. Read once; leaving a loop early, or
 * `cancel()`, stops the download.
 */
export class JobResult implements AsyncIterable<Uint8Array> {
  readonly meta: ReplyMeta;
  readonly response: Response;
  private used = false;
  private readonly hooks: CsvReplyHooks;

  /** Made by `client.jobs.result`. */
  constructor(response: Response, meta: ReplyMeta, hooks: CsvReplyHooks) {
    this.response = response;
    this.meta = meta;
    this.hooks = hooks;
  }

  /** `csv` or `jsonl`, from the reply's content type. */
  get format(): 'csv' | 'jsonl' {
    return /ndjson|jsonl/i.test(this.response.headers.get('content-type') ?? '') ? 'jsonl' : 'csv';
  }

  /** The file name the server suggests (`job_….csv`). */
  get filename(): string | undefined {
    return FILENAME.exec(this.response.headers.get('content-disposition') ?? '')?.[1];
  }

  /** The result's bytes (decompressed) as they arrive. */
  async *chunks(): AsyncGenerator<Uint8Array> {
    if (this.used) throw new TypeError('This job result has been read already.');
    this.used = true;
    const body = this.response.body;
    if (!body) {
      this.hooks.done();
      return;
    }
    const reader = body.getReader();
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
        yield next.value;
      }
      finished = true;
    } finally {
      if (!finished) {
        await reader.cancel().catch(() => undefined);
        this.hooks.stop();
      }
      reader.releaseLock();
      this.hooks.done();
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return this.chunks();
  }

  /**
   * Each record's text without its line end, as it arrives: a CSV record (a quoted cell may hold a line break), or a
   * JSON line.
   */
  async *lines(): AsyncGenerator<string> {
    const decoder = new TextDecoder('utf-8');
    const chunks = this.chunks();
    async function* text(): AsyncGenerator<string> {
      for await (const bytes of chunks) {
        const piece = decoder.decode(bytes, { stream: true });
        if (piece) yield piece;
      }
      const rest = decoder.decode();
      if (rest) yield rest;
    }
    if (this.format === 'csv') {
      yield* csvRecords(text());
      return;
    }
    // JSON lines: a line break inside a JSON string is escaped, so every LF ends a line.
    let buffer = '';
    for await (const piece of text()) {
      buffer += piece;
      let start = 0;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n', start)) {
        yield buffer.slice(start, end).replace(/\r$/, '');
        start = end + 1;
      }
      buffer = buffer.slice(start);
    }
    if (buffer !== '') yield buffer;
  }

  /** A `jsonl` result's rows, parsed, as they arrive. */
  async *items(): AsyncGenerator<JobResultItem> {
    if (this.format !== 'jsonl') throw new TypeError('items() reads a jsonl result; this one is csv: read lines().');
    for await (const line of this.lines()) if (line !== '') yield JSON.parse(line) as JobResultItem;
  }

  /** Stops the download. */
  async cancel(): Promise<void> {
    this.used = true;
    await this.response.body?.cancel().catch(() => undefined);
    this.hooks.stop();
    this.hooks.done();
  }

  private readError(cause: unknown): TesseraError {
    const reason = this.hooks.abortReason();
    if (reason instanceof TesseraError) return reason;
    return new TesseraError({
      status: this.meta.status,
      code: 'network_error',
      message: `The job result was cut short: ${cause instanceof Error ? cause.message : String(cause)}`,
      requestId: this.meta.requestId,
      headers: this.meta.headers,
      attempts: this.meta.attempts,
      cause,
    });
  }
}
